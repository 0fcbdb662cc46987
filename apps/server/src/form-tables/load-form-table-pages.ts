import { type FormValues, unscheduledRepeatKey } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { amendmentsFrom, moveFormThrough } from '../studies/amendment-chain.ts';
import { type FormTablesScope, instancesInScope } from './form-tables-scope.ts';
import type { ExportTable, TablesContext } from './tables-context.ts';
import { loadMigrationHistory, type MigrationHistory, valuesAsEntered } from './values-as-entered.ts';

/**
 * One table's rows, page after page: each page is about `pageSize` form instances (whole subjects,
 * so a subject's visits can be put in the definition's order) read with two set-based queries — the
 * instances with their subjects, then the table's stored values of those instances — never one
 * query per subject. Pages are keyed on the subject id (keyset), so memory holds one page at a time
 * whatever the study's size, and the index on (form_key, subject_id) of instances with data serves
 * both the page boundary and the page.
 *
 * The table reads its keys under every version it shows (`reads`). As of the current version, a
 * form of a subject still on an earlier version is moved as its migration would move it, and one
 * that leaves nothing in this table (retired, or another form's now) is not a row of it; as entered,
 * each stored form is undone of what the migrations changed (values-as-entered.ts).
 */

export interface FormTableRow {
  subject: string;
  site: string;
  visit: string;
  /** 1-based row of a repeating group; null for a table of plain items. */
  repeat: number | null;
  /** Stored values by item key (JSON as stored: codes, numbers, texts, booleans, arrays of codes). */
  values: Record<string, unknown>;
}

export interface FormTablePage {
  rows: FormTableRow[];
  /** How many stored values the page read (a repeating group's stored value counts once). */
  values: number;
}

export async function* formTablePages(
  db: Kysely<Database>,
  scope: FormTablesScope,
  table: ExportTable,
  context: TablesContext,
): AsyncGenerator<FormTablePage> {
  const scheduledOrder = new Map(context.definition.visits.map((visit, index) => [visit.key, index]));
  // Unscheduled visits (`unscheduled-<n>`, issue 19) after the schedule, by repeat key.
  const visitOrder = {
    get: (visitKey: string) => {
      const repeatKey = unscheduledRepeatKey(visitKey);
      return repeatKey === undefined ? scheduledOrder.get(visitKey) : scheduledOrder.size + repeatKey;
    },
  };
  const keys = table.reads.itemKeys;
  // The keyset bound is stated on both sides of the join, so neither side is read from its start.
  const formInstances = (after: number) =>
    instancesInScope(db, scope)
      .where('fi.form_key', 'in', table.reads.formKeys)
      .where('fi.subject_id', '>', after)
      .where('s.id', '>', after);
  let afterSubjectId = 0;
  for (;;) {
    // The subject holding the page's last instance closes the page; its other visits come along.
    const boundary = await formInstances(afterSubjectId)
      .select('fi.subject_id')
      .orderBy('fi.subject_id')
      .offset(context.pageSize - 1)
      .limit(1)
      .executeTakeFirst();
    let instanceQuery = formInstances(afterSubjectId).select([
      'fi.id',
      'fi.subject_id',
      'fi.visit_key',
      'fi.form_key',
      's.screening_number',
      's.site_id',
      's.definition_version',
    ]);
    if (boundary) instanceQuery = instanceQuery.where('fi.subject_id', '<=', boundary.subject_id);
    const instances = await instanceQuery.execute();
    if (instances.length === 0) return;
    instances.sort(
      (a, b) =>
        a.subject_id - b.subject_id ||
        (visitOrder.get(a.visit_key) ?? Number.MAX_SAFE_INTEGER) -
          (visitOrder.get(b.visit_key) ?? Number.MAX_SAFE_INTEGER) ||
        a.visit_key.localeCompare(b.visit_key),
    );
    // A table whose every column is masked reads no value (and `in ()` is not SQL).
    const valueRows =
      keys.length === 0
        ? []
        : await db
            .selectFrom('item_values')
            .select(['form_instance_id', 'item_key', 'value'])
            .where(
              'form_instance_id',
              'in',
              instances.map((instance) => instance.id),
            )
            .where('item_key', 'in', keys)
            .execute();
    const valuesByInstance = new Map<number, Record<string, unknown>>();
    for (const row of valueRows) {
      const values = valuesByInstance.get(row.form_instance_id) ?? {};
      values[row.item_key] = row.value;
      valuesByInstance.set(row.form_instance_id, values);
    }

    const history: MigrationHistory | null =
      context.valuesAsOf === 'entered' && context.chain.amendments.length > 0
        ? await loadMigrationHistory(db, instances)
        : null;

    const rows: FormTableRow[] = [];
    for (const instance of instances) {
      let values = valuesByInstance.get(instance.id) ?? {};
      if (history) {
        values = valuesAsEntered(history, instance.subject_id, instance.visit_key, instance.form_key, values);
      } else {
        const steps = amendmentsFrom(context.chain, instance.definition_version);
        const moved = moveFormThrough(steps, instance.visit_key, instance.form_key, values as FormValues);
        if (moved.formKey !== table.formKey) continue;
        values = moved.values;
      }
      const base = {
        subject: instance.screening_number,
        site: context.siteCodes.get(instance.site_id) ?? String(instance.site_id),
        visit: instance.visit_key,
      };
      if (table.groupKey === null) {
        rows.push({ ...base, repeat: null, values });
        continue;
      }
      const groupRows = values[table.groupKey];
      if (!Array.isArray(groupRows)) continue;
      groupRows.forEach((cells: unknown, index) => {
        const values = cells !== null && typeof cells === 'object' ? (cells as Record<string, unknown>) : {};
        rows.push({ ...base, repeat: index + 1, values });
      });
    }
    yield { rows, values: valueRows.length };
    if (!boundary) return;
    afterSubjectId = boundary.subject_id;
  }
}
