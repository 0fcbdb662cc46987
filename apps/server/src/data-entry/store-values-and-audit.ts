import type { JsonValue, StudyDefinition, SubjectEvaluation } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { StoredSubjectData } from '../after-change/form-change.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Database, FormInstanceRow } from '../db/schema.ts';
import type { FoundForSave } from './check-version-and-holds.ts';
import { derivedValueChanges } from './derived-value-changes.ts';
import type { EvaluatedChange } from './evaluate-change.ts';
import type { WriteFormInput } from './form-data.ts';

/** What the save stored. */
export interface StoredChange {
  /** The form's row as found or created (its new state is in `stored.instances`). */
  instance: FormInstanceRow;
  /** The changed values still to upsert with the form's row ([item, value]). */
  writtenValues: Array<[string, JsonValue]>;
  /** The forms whose stored derived values changed. */
  derivedChangedForms: Array<{ visitKey: string; formKey: string }>;
}

/**
 * The save's third step: the form's row created on its first save, cleared values deleted, each
 * changed item audited with its reason, the form's new state kept in `stored.instances` and the
 * derived values of every saved form stored where they changed. The form's row and its other
 * changed values are written in one statement once its status is known (form-statuses.ts).
 */
export async function storeValuesAndAudit(
  trx: Transaction<Database>,
  input: WriteFormInput,
  found: FoundForSave,
  change: EvaluatedChange,
  at: Date,
): Promise<StoredChange> {
  const { subject, visitKey, formKey, actor } = input;
  const { stored, current } = found;
  const { before, after, changedKeys } = change;
  const instance = current
    ? current
    : await trx
        .insertInto('form_instances')
        .values({
          subject_id: subject.id,
          visit_key: visitKey,
          form_key: formKey,
          definition_version: input.definitionVersion,
          saved_by: actor.userId,
          first_saved_at: input.enteredAt ?? at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();

  // The changed values: cleared ones deleted here, the rest upserted with the form's row at the end
  // (one statement; nothing before that reads the form's values back). Each change is audited with
  // its reason.
  await deleteItemValues(
    trx,
    instance.id,
    changedKeys.filter((itemKey) => after[itemKey] === undefined),
  );
  const writtenValues = changedKeys
    .filter((itemKey) => after[itemKey] !== undefined)
    .map((itemKey): [string, JsonValue] => [itemKey, after[itemKey] as JsonValue]);
  for (const itemKey of changedKeys) {
    const value = after[itemKey];
    await recordAudit(trx, actor, {
      type: 'data.item_changed',
      entityType: 'item',
      entityId: `${visitKey}.${formKey}.${itemKey}`,
      ...subjectAuditScope(subject),
      before: { value: before[itemKey] ?? null },
      after: { value: value ?? null },
      reason: input.reasonForAll ?? input.reasons[itemKey] ?? null,
    });
  }

  // The form's new state, in memory until its status is known: one UPDATE at the end writes both.
  const savedState = {
    version: (current?.version ?? 0) + 1,
    has_data: Object.keys(after).length > 0,
    definition_version: input.definitionVersion,
    saved_at: at,
    saved_by: actor.userId,
  };
  stored.instances.set(found.key, { ...instance, ...savedState });

  const derivedChangedForms = await storeDerivedValues(
    trx,
    input.definition,
    stored,
    change.evaluation,
    input.definitionVersion,
  );
  return { instance, writtenValues, derivedChangedForms };
}

/**
 * Derived values of every saved form, stored where they changed (age follows a corrected birth
 * date…). Returns the forms whose derived values it changed. The derivations ran over the whole
 * subject (`evaluation.data`), whichever forms the save walked.
 */
async function storeDerivedValues(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  definitionVersion: string,
): Promise<Array<{ visitKey: string; formKey: string }>> {
  const changes = derivedValueChanges(definition, stored, evaluation);
  const changedForms: Array<{ visitKey: string; formKey: string }> = [];
  const cleared: Array<{ instanceId: number; itemKey: string }> = [];
  const written: Array<{ instanceId: number; itemKey: string; value: JsonValue }> = [];
  for (const change of changes) {
    const last = changedForms.at(-1);
    if (last?.visitKey !== change.visitKey || last.formKey !== change.formKey)
      changedForms.push({ visitKey: change.visitKey, formKey: change.formKey });
    if (change.after === undefined) cleared.push({ instanceId: change.instanceId, itemKey: change.itemKey });
    else written.push({ instanceId: change.instanceId, itemKey: change.itemKey, value: change.after });
  }
  for (const [instanceId, itemKeys] of groupByInstance(cleared))
    await deleteItemValues(trx, instanceId, itemKeys);
  if (written.length === 0) return changedForms;
  const now = new Date();
  await trx
    .insertInto('item_values')
    .values(
      written.map(({ instanceId, itemKey, value }) => ({
        form_instance_id: instanceId,
        item_key: itemKey,
        value: JSON.stringify(value),
        derived: true,
        definition_version: definitionVersion,
        updated_at: now,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['form_instance_id', 'item_key']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        derived: true,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  return changedForms;
}

function groupByInstance(entries: Array<{ instanceId: number; itemKey: string }>): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const { instanceId, itemKey } of entries)
    grouped.set(instanceId, [...(grouped.get(instanceId) ?? []), itemKey]);
  return grouped;
}

/** Removes a form's stored values of these items (one statement; none when there are none). */
async function deleteItemValues(trx: Transaction<Database>, instanceId: number, itemKeys: readonly string[]) {
  if (itemKeys.length === 0) return;
  await trx
    .deleteFrom('item_values')
    .where('form_instance_id', '=', instanceId)
    .where('item_key', 'in', [...itemKeys])
    .execute();
}
