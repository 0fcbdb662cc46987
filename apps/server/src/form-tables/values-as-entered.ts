import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * What an amendment's migration changed in a page of subjects, to give each value as it was
 * entered (the exports' "as entered"). A migration writes the values it re-codes, converts or
 * retires through the save, audited as `data.item_changed` by its actor (`amendment-migration
 * <number>`) with the value before and after, and keeps the retired derived values it removes in
 * `retired_item_values`. So a stored value still equal to what a migration wrote is shown as it was
 * before that migration — and before the migration ahead of it, while each wrote what the next
 * found. A value changed by a person since is as that person entered it, and stays.
 */

/** A form's migration records: the item, oldest first, with the value before and after. */
type MigrationChanges = Map<string, Array<{ before: unknown; after: unknown }>>;

export interface MigrationHistory {
  /** By `subjectId|visit|form`: the form's values each migration changed. */
  changes: Map<string, MigrationChanges>;
  /** By `subjectId|visit|form`: the derived values a migration retired. */
  retiredDerived: Map<string, Record<string, unknown>>;
}

const formOf = (subjectId: number, visitKey: string, formKey: string) =>
  `${subjectId}|${visitKey}|${formKey}`;

/** One page's migration records, in two set-based reads (none when the study was never amended). */
export async function loadMigrationHistory(
  db: Kysely<Database>,
  subjects: Array<{ subject_id: number; visit_key: string; form_key: string }>,
): Promise<MigrationHistory> {
  const history: MigrationHistory = { changes: new Map(), retiredDerived: new Map() };
  const subjectIds = [...new Set(subjects.map((subject) => subject.subject_id))];
  if (subjectIds.length === 0) return history;
  // A record names `visit.form.item`: the page's forms tell where the form's key ends.
  const paths = new Map<string, { visitKey: string; formKey: string }>();
  for (const { visit_key, form_key } of subjects)
    paths.set(`${visit_key}.${form_key}.`, { visitKey: visit_key, formKey: form_key });
  const records = await db
    .selectFrom('audit_events')
    .select(['subject_id', 'entity_id', 'before', 'after'])
    .where('subject_id', 'in', subjectIds)
    .where('event_type', '=', 'data.item_changed')
    .where('actor_label', 'like', 'amendment-migration %')
    .orderBy('id')
    .execute();
  for (const record of records) {
    if (record.subject_id === null || record.entity_id === null) continue;
    for (const [prefix, place] of paths) {
      if (!record.entity_id.startsWith(prefix)) continue;
      const key = formOf(record.subject_id, place.visitKey, place.formKey);
      const changes = history.changes.get(key) ?? new Map();
      const itemKey = record.entity_id.slice(prefix.length);
      changes.set(itemKey, [
        ...(changes.get(itemKey) ?? []),
        { before: recordedValue(record.before), after: recordedValue(record.after) },
      ]);
      history.changes.set(key, changes);
    }
  }
  const retired = await db
    .selectFrom('retired_item_values')
    .select(['subject_id', 'visit_key', 'form_key', 'item_path', 'value'])
    .where('subject_id', 'in', subjectIds)
    .where('derived', '=', true)
    .orderBy('id')
    .execute();
  for (const row of retired) {
    // A value inside a repeating group's row goes back with the group's own record above.
    if (/[.[]/.test(row.item_path)) continue;
    const key = formOf(row.subject_id, row.visit_key, row.form_key);
    history.retiredDerived.set(key, { ...history.retiredDerived.get(key), [row.item_path]: row.value });
  }
  return history;
}

const recordedValue = (side: unknown): unknown =>
  side !== null && typeof side === 'object' && 'value' in side ? (side as { value: unknown }).value : null;

/** One stored form's values as entered: each migration's change undone while nobody changed it since. */
export function valuesAsEntered(
  history: MigrationHistory,
  subjectId: number,
  visitKey: string,
  formKey: string,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const key = formOf(subjectId, visitKey, formKey);
  const changes = history.changes.get(key);
  const retired = history.retiredDerived.get(key);
  if (!changes && !retired) return stored;
  const values = { ...retired, ...stored };
  for (const [itemKey, records] of changes ?? []) {
    let value: unknown = stored[itemKey] ?? null;
    for (const record of [...records].reverse()) {
      if (!isDeepStrictEqual(record.after, value)) break;
      value = record.before;
    }
    if (value === null) delete values[itemKey];
    else values[itemKey] = value;
  }
  return values;
}
