import type { FormSet, JsonValue, StudyDefinition, SubjectEvaluation } from '@cdms/study';
import { CompiledQuery, type Transaction } from 'kysely';
import type { AfterChange, OpenQuery, StoredSubjectData } from '../after-change/form-change.ts';
import { sendUnanswered } from '../db/in-transaction.ts';
import type { Database, FormInstanceRow } from '../db/schema.ts';
import { formStatusOf, openQueryCountsByForm } from './form-status-of.ts';
import { formKeyOf } from './load-subject-for-save.ts';

/**
 * After a save: every walked form's status from its data and open queries, written where it
 * changed; the saved form's own with its row and changed values, in one statement.
 */
export const writeFormStatusesAfterChange: AfterChange = async (change) => {
  const { trx, stored, key, instance } = change;
  const statuses = await refreshFormStatuses(
    trx,
    change.definition,
    change.subject.id,
    stored,
    change.evaluation,
    {
      writtenByCaller: key,
      openQueries: change.effects.openQueries,
      walked: change.walked,
    },
  );
  // The form's row and its changed values in one statement, sent without waiting for its answer
  // (`sendUnanswered`): what it writes is known here, and the database runs it before anything the
  // transaction sends after it. On a corrected value it is the save's last statement, so it leaves
  // with the audit append and COMMIT in one round trip.
  const savedState = stored.instances.get(key) ?? instance;
  const saved: FormInstanceRow = { ...savedState, status: statuses.get(key) ?? instance.status };
  sendUnanswered(trx, formWriteStatement(saved, change.writtenValues));
  stored.instances.set(key, saved);
  change.effects.statuses = statuses;
  change.effects.saved = saved;
};

/**
 * The form's row as a save leaves it, with its entered values that changed (upserted), in one
 * statement of constant text: the values travel as one JSON parameter ([item, value] pairs), so
 * the statement is not built and compiled again for every save (building it with its VALUES list
 * was ~5 % of the server's busy time in a profile of saves, issue 12) and is prepared once per
 * connection (db/database.ts).
 */
function formWriteStatement(
  row: FormInstanceRow,
  values: ReadonlyArray<[string, JsonValue]>,
): CompiledQuery<never> {
  return CompiledQuery.raw(
    `with values_written as (
      insert into item_values (form_instance_id, item_key, value, derived, definition_version, updated_at, updated_by)
      select $1, entry->>0, entry->1, false, $3, $4, $5 from jsonb_array_elements($2::jsonb) as entry
      on conflict (form_instance_id, item_key) do update set value = excluded.value, derived = false,
        definition_version = excluded.definition_version, updated_at = excluded.updated_at,
        updated_by = excluded.updated_by
    )
    update form_instances set version = $6, has_data = $7, definition_version = $3, saved_at = $4,
      saved_by = $5, status = $8
    where id = $1`,
    [
      row.id,
      JSON.stringify(values),
      row.definition_version,
      row.saved_at,
      row.saved_by,
      row.version,
      row.has_data,
      row.status,
    ],
  );
}

/**
 * Each saved form's overview status from its data and its open queries, written where it changed.
 */
export async function refreshFormStatuses(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subjectId: number,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  known: {
    /** The form a save is writing anyway: its status is only computed. */
    writtenByCaller?: string;
    /** The subject's open and answered queries, when the caller has them (a save does). */
    openQueries?: readonly OpenQuery[];
    /**
     * The forms the caller evaluated, when not all (a save): the others keep their stored status,
     * since nothing their status follows from has changed (`formsToWalk`).
     */
    walked?: FormSet;
  } = {},
): Promise<Map<string, string>> {
  const openQueries =
    known.openQueries ??
    (await trx
      .selectFrom('queries')
      .select(['visit_key', 'form_key'])
      .where('subject_id', '=', subjectId)
      .where('status', 'in', ['open', 'answered'])
      .execute());
  const counts = openQueryCountsByForm(openQueries);
  const evaluated = new Map(evaluation.forms.map((form) => [formKeyOf(form.visitKey, form.formKey), form]));
  const statuses = new Map<string, string>();
  for (const [key, instance] of stored.instances) {
    if (known.walked && !known.walked.has(instance.visit_key, instance.form_key)) {
      statuses.set(key, instance.status);
      continue;
    }
    const status = formStatusOf(definition, instance, evaluated.get(key), counts.get(key) ?? 0);
    statuses.set(key, status);
    if (status !== instance.status && key !== known.writtenByCaller)
      await trx.updateTable('form_instances').set({ status }).where('id', '=', instance.id).execute();
  }
  return statuses;
}
