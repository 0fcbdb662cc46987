import { refuseUnderHolds } from '@cdms/contract';
import { type FormValues, type JsonValue, migrateFormValues } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { StoredSubjectData } from '../after-change/form-change.ts';
import { migrateStoredSubject } from '../amendment-impact/migrate-stored-subject.ts';
import { nextQueryPlace } from '../amendment-impact/next-query-place.ts';
import { type AuditActor, systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { loadSubjectData, writeForm } from '../data-entry/form-data.ts';
import { formValues } from '../data-entry/form-values.ts';
import type { Database } from '../db/schema.ts';
import { holdsOver, subjectTarget } from '../locks/holds-in-force.ts';
import type { PublishedAmendment } from '../studies/amendment-chain.ts';
import { type SubjectWithSite, subjectQuery } from '../subjects/subject-access.ts';

/**
 * The migration's actor in the audit trail: the system, named with the amendment's number, so the
 * records the save's reactions write (system queries, SDV resets, signature invalidation, statuses)
 * say which amendment moved them; the value changes and `subject.migrated` also carry it as the reason.
 */
export function migrationActor(amendment: Pick<PublishedAmendment, 'number'>): AuditActor {
  return systemActor(`amendment-migration ${amendment.number}`);
}

export type SubjectMigration =
  /** Moved to the amendment's version. */
  | 'migrated'
  /** A freeze or lock over a form the amendment touches: the subject stays as it is until it is lifted. */
  | 'held'
  /** Not on the amendment's `from` version (moved already, deleted, or on another version). */
  | 'skipped';

/**
 * Moves one subject to the amendment's version, in the caller's transaction, under the subject's row
 * lock: all of it or (the transaction rolled back) none of it.
 * 1. the stored data moved by the plan (`migrateStoredSubject`, as the impact analysis moved it);
 * 2. a subject with a hold over a form the move touches is left as it is (`held`);
 * 3. retired values copied to `retired_item_values` (kept, never deleted);
 * 4. renamed forms and items re-keyed where they are stored (forms, values, queries, comments,
 *    photos, SDV marks): the values move with their history, nothing is deleted and added;
 * 5. each form whose values change (converted, re-coded, retired) written by `writeForm` under the
 *    next version, with the amendment's number as the reason: the save's own evaluation, audit,
 *    system queries, statuses, SDV reset and signature invalidation. A subject with no such form
 *    has its first form written as it is, so the next version's rules judge every form (the save
 *    walks every form saved under another version);
 * 6. every kept form and the subject marked with the next version; one `subject.migrated` record.
 * A hard check of the next version that the moved data fails throws (422): the caller records it.
 */
export async function migrateSubject(
  trx: Transaction<Database>,
  amendment: PublishedAmendment,
  subjectId: number,
): Promise<SubjectMigration> {
  const subject: SubjectWithSite | undefined = await subjectQuery(trx, amendment.studyId, subjectId)
    .forUpdate(['subjects'])
    .executeTakeFirst();
  if (!subject || subject.definition_version !== amendment.from.version) return 'skipped';
  const stored = await loadSubjectData(trx, subjectId);
  const migrated = migrateStoredSubject(amendment.changeSet, stored);
  const plan = amendment.changeSet.plan;

  // The forms the move touches: re-keyed, retired, or with a value that changes.
  const touched = [...stored.instances].filter(([key, instance]) => {
    const nextKey = plan.forms[instance.form_key]?.to;
    return (
      migrated.retiredForms.has(key) ||
      (nextKey !== undefined && nextKey !== instance.form_key) ||
      (migrated.changedItems.get(key)?.size ?? 0) > 0
    );
  });
  for (const [, instance] of touched) {
    const holds = await holdsOver(
      trx,
      subjectTarget(subject, { visitKey: instance.visit_key, formKey: instance.form_key }),
    );
    if (refuseUnderHolds('form.save', holds) !== null) return 'held';
  }

  const retiredValues = await keepRetiredValues(trx, amendment, subject, stored, migrated.valueImpacts);
  const renamedValues = await rekeyRenamed(trx, amendment, subject, stored);

  const reason = amendment.number;
  const kept = [...migrated.stored.instances].filter(([, instance]) => instance.has_data);
  const toWrite = kept.filter(([nextKey]) => {
    const liveKey = `${migrated.stored.instances.get(nextKey)?.visit_key}.${migrated.liveFormKeys.get(nextKey)}`;
    return (migrated.changedItems.get(liveKey)?.size ?? 0) > 0;
  });
  if (toWrite.length === 0 && kept[0]) toWrite.push(kept[0]);
  for (const [, instance] of toWrite) {
    const current = await trx
      .selectFrom('form_instances')
      .select('version')
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow();
    await writeForm(trx, {
      subject,
      subjectLocked: true,
      definition: amendment.to.definition,
      definitionVersion: amendment.to.version,
      visitKey: instance.visit_key,
      formKey: instance.form_key,
      values: formValues(migrated.stored.entered, instance.visit_key, instance.form_key) as FormValues,
      expectedVersion: current.version,
      reasons: {},
      reasonForAll: reason,
      actor: migrationActor(amendment),
      systemWrite: true,
    });
  }
  // Derived values of retired items: kept above, no longer computed by the next version.
  for (const retired of retiredValues.filter((value) => value.derived && !value.wholeForm)) {
    await trx
      .deleteFrom('item_values')
      .where('form_instance_id', '=', retired.instanceId)
      .where('item_key', '=', retired.itemKey)
      .where('derived', '=', true)
      .execute();
  }
  const keptIds = [...migrated.stored.instances.values()].map((instance) => instance.id);
  if (keptIds.length > 0)
    await trx
      .updateTable('form_instances')
      .set({ definition_version: amendment.to.version })
      .where('id', 'in', keptIds)
      .execute();
  await trx
    .updateTable('subjects')
    .set({ definition_version: amendment.to.version })
    .where('id', '=', subjectId)
    .execute();
  await recordAudit(trx, migrationActor(amendment), {
    type: 'subject.migrated',
    entityType: 'subject',
    entityId: subjectId,
    studyId: subject.study_id,
    siteId: subject.site_id,
    subjectId,
    reason,
    before: { fromVersion: amendment.from.version },
    after: {
      number: amendment.number,
      toVersion: amendment.to.version,
      keptForms: keptIds.length,
      renamedValues,
      retiredValues: retiredValues.map((value) => value.path),
    },
  });
  return 'migrated';
}

interface RetiredValue {
  path: string;
  instanceId: number;
  itemKey: string;
  derived: boolean;
  wholeForm: boolean;
}

/** Every value the move retires, copied as it is stored (the entered and the derived ones). */
async function keepRetiredValues(
  trx: Transaction<Database>,
  amendment: PublishedAmendment,
  subject: { id: number },
  stored: StoredSubjectData,
  impacts: ReturnType<typeof migrateStoredSubject>['valueImpacts'],
): Promise<RetiredValue[]> {
  const retired: RetiredValue[] = [];
  for (const impact of impacts) {
    if (impact.kind !== 'valueRetired' || impact.itemKey === null) continue;
    if (impact.visitKey === null || impact.formKey === null) continue;
    const instance = stored.instances.get(`${impact.visitKey}.${impact.formKey}`);
    if (!instance) continue;
    const itemKey = impact.itemKey.split(/[.[]/)[0] as string;
    const derived = Object.hasOwn(formValues(stored.derived, impact.visitKey, impact.formKey), itemKey);
    // A retired form keeps its row and values where they are (no version shows it any more).
    const wholeForm = migrateStoredSubjectRetires(amendment, impact.visitKey, impact.formKey);
    await trx
      .insertInto('retired_item_values')
      .values({
        subject_id: subject.id,
        amendment_id: amendment.id,
        visit_key: impact.visitKey,
        form_key: impact.formKey,
        item_path: impact.itemKey,
        value: JSON.stringify(impact.before as JsonValue),
        derived,
        definition_version: instance.definition_version,
      })
      .execute();
    retired.push({
      path: `${impact.visitKey}.${impact.formKey}.${impact.itemKey}`,
      instanceId: instance.id,
      itemKey,
      derived,
      wholeForm,
    });
  }
  return retired;
}

/**
 * Renamed forms and top-level items re-keyed where the subject's data names them. A renamed item in a
 * repeating group's rows changes the group's value: `writeForm` moves it with the other changes.
 */
async function rekeyRenamed(
  trx: Transaction<Database>,
  amendment: PublishedAmendment,
  subject: { id: number },
  stored: StoredSubjectData,
): Promise<string[]> {
  const plan = amendment.changeSet.plan;
  const renamed: string[] = [];
  for (const instance of stored.instances.values()) {
    const formPlan = Object.hasOwn(plan.forms, instance.form_key) ? plan.forms[instance.form_key] : undefined;
    if (!formPlan || formPlan.to === null) continue;
    const values = {
      ...formValues(stored.entered, instance.visit_key, instance.form_key),
      ...formValues(stored.derived, instance.visit_key, instance.form_key),
    };
    for (const itemKey of Object.keys(values)) {
      const itemPlan = Object.hasOwn(formPlan.items, itemKey) ? formPlan.items[itemKey] : undefined;
      if (!itemPlan || itemPlan.group !== undefined || itemPlan.to === null || itemPlan.to === itemKey)
        continue;
      await trx
        .updateTable('item_values')
        .set({ item_key: itemPlan.to })
        .where('form_instance_id', '=', instance.id)
        .where('item_key', '=', itemKey)
        .execute();
      await trx
        .updateTable('sdv_marks')
        .set({ item_key: itemPlan.to })
        .where('form_instance_id', '=', instance.id)
        .where('item_key', '=', itemKey)
        .execute();
      renamed.push(
        `${instance.visit_key}.${instance.form_key}.${itemKey} → ${instance.visit_key}.${formPlan.to}.${itemPlan.to}`,
      );
    }
    if (formPlan.to !== instance.form_key) {
      const where = { subject: subject.id, visit: instance.visit_key, form: instance.form_key };
      await trx
        .updateTable('form_instances')
        .set({ form_key: formPlan.to })
        .where('id', '=', instance.id)
        .execute();
      for (const table of ['form_comments', 'form_photos'] as const)
        await trx
          .updateTable(table)
          .set({ form_key: formPlan.to })
          .where('subject_id', '=', where.subject)
          .where('visit_key', '=', where.visit)
          .where('form_key', '=', where.form)
          .execute();
      renamed.push(`${instance.visit_key}.${instance.form_key} → ${instance.visit_key}.${formPlan.to}`);
    }
  }
  // The subject's queries follow their form and item (a built-in check's id with them).
  const queries = await trx
    .selectFrom('queries')
    .select(['id', 'kind', 'status', 'visit_key', 'form_key', 'check_id', 'item_path'])
    .where('subject_id', '=', subject.id)
    .execute();
  for (const query of queries) {
    const place = nextQueryPlace(amendment.changeSet, query);
    if (!place) continue;
    // A query on the whole form has no item path under the form's prefix: only its form moves.
    const onItem = query.item_path.startsWith(`${query.visit_key}.${query.form_key}.`);
    const itemPath = onItem ? `${place.visitKey}.${place.formKey}.${place.itemPath}` : query.item_path;
    if (place.formKey === query.form_key && itemPath === query.item_path && place.checkId === query.check_id)
      continue;
    await trx
      .updateTable('queries')
      .set({ form_key: place.formKey, item_path: itemPath, check_id: place.checkId })
      .where('id', '=', query.id)
      .execute();
  }
  return renamed;
}

/** Whether the move retires the whole form at this visit (its data stays in its rows, unseen). */
function migrateStoredSubjectRetires(
  amendment: PublishedAmendment,
  visitKey: string,
  formKey: string,
): boolean {
  return migrateFormValues(amendment.changeSet, visitKey, formKey, {}).formKey === null;
}
