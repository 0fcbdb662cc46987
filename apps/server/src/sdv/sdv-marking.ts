import type { FormSdv } from '@cdms/contract';
import { getFormLayout, resolveVisit, type StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { loadFormSdv, type MarkableForm, type MarkableItem, subjectSiteRank } from '../sdv-state/form-sdv.ts';
import { loadSdvPlan } from '../sdv-state/sdv-plan.ts';
import { itemInPlan } from '../sdv-state/sdv-rules.ts';
import { lockLiveSubject } from '../subjects/lock-live-subject.ts';
import { findSubjectAndDefinitionInScope, type SubjectWithSite } from '../subjects/subject-access.ts';
import { requireVisitOfSubject } from '../unscheduled-visits/unscheduled-visits.ts';

/**
 * What the SDV marking commands share: the policy (the subject visible, else 404; `sdv.mark` at its
 * site — a CRA on a site they monitor —, else 403; the form in the definition, else 404), the
 * subject's row lock and the hold guard (a lock refuses SDV, a freeze allows it), and writing one
 * mark with its audit record.
 */

export interface SdvSubject {
  subject: SubjectWithSite;
  definition: StudyDefinition;
}

export async function subjectForSdv(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  subjectPk: number,
  visitKey: string,
  formKey?: string,
): Promise<SdvSubject> {
  // The subject's own version: one not yet migrated is verified against the forms it was entered on.
  const { subject, definition } = await findSubjectAndDefinitionInScope(
    db,
    principal,
    studyId,
    subjectPk,
    'sdv.mark',
  );
  const known =
    formKey === undefined
      ? resolveVisit(definition, visitKey) !== undefined
      : getFormLayout(definition, visitKey, formKey) !== undefined;
  if (!known) throw new AppError(404, 'not_found');
  await requireVisitOfSubject(db, subject.id, visitKey);
  return { subject, definition };
}

/** The subject's row lock and the hold guard for `sdv.mark` on one form. */
export async function lockForSdv(
  trx: Transaction<Database>,
  subject: SubjectWithSite,
  form: { visitKey: string; formKey: string },
): Promise<void> {
  await lockLiveSubject(trx, subject.id);
  await refuseWriteUnderHolds(trx, 'sdv.mark', subjectTarget(subject, form));
}

/** The entered items the plan counts for this subject and that are not verified now. */
export async function unverifiedPlannedItems(
  trx: Transaction<Database>,
  subject: SubjectWithSite,
  form: MarkableForm,
): Promise<MarkableItem[]> {
  const plan = await loadSdvPlan(trx, subject.study_id);
  const rank = await subjectSiteRank(trx, subject);
  return form.entered.filter((item) => item.state !== 'verified' && itemInPlan(plan, rank, item.critical));
}

/** Writes the marks of `items` (entered, not verified) as verified now by the principal, each audited. */
export async function markVerified(
  trx: Transaction<Database>,
  principal: Principal,
  actor: AuditActor,
  subject: SubjectWithSite,
  target: { visitKey: string; formKey: string; instanceId: number },
  items: MarkableItem[],
  at: Date,
): Promise<void> {
  for (const item of items) {
    const values = {
      state: 'verified' as const,
      verified_value: JSON.stringify(item.value),
      verified_by: principal.user.id,
      verified_at: at,
      changed_at: null,
    };
    await trx
      .insertInto('sdv_marks')
      .values({
        form_instance_id: target.instanceId,
        item_key: item.key,
        study_id: subject.study_id,
        site_id: subject.site_id,
        subject_id: subject.id,
        ...values,
      })
      .onConflict((conflict) => conflict.columns(['form_instance_id', 'item_key']).doUpdateSet(values))
      .execute();
    await recordAudit(trx, actor, {
      type: 'sdv.verified',
      entityType: 'item',
      entityId: `${target.visitKey}.${target.formKey}.${item.key}`,
      ...subjectAuditScope(subject),
      before: { state: item.state ?? 'unverified' },
      after: { state: 'verified', value: item.value },
    });
  }
}

/** The form's SDV after a marking command, read with the plan in force. */
export async function formSdvAfter(
  db: Kysely<Database>,
  sdv: SdvSubject,
  visitKey: string,
  formKey: string,
): Promise<FormSdv> {
  const plan = await loadSdvPlan(db, sdv.subject.study_id);
  return loadFormSdv(db, { definition: sdv.definition, plan, subject: sdv.subject, visitKey, formKey });
}
