import type { FormSdv } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { loadMarkableForm, type MarkableForm, type MarkableItem } from '../sdv-state/form-sdv.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';
import { formSdvAfter, lockForSdv, markVerified, type SdvSubject, subjectForSdv } from './sdv-marking.ts';

/**
 * What a command on the marks of one form (verify the form, verify items, unverify items) does
 * around its own change: the policy (subjectForSdv), then in one transaction the subject's lock and
 * the hold guard, the form as it is now, the `change`, and the subject's SDV counts in the read
 * model (progress, board, popup), which change with the marks; it answers the form's SDV after.
 */
export async function changeFormMarks(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  target: { subjectPk: number; visitKey: string; formKey: string },
  change: (trx: Transaction<Database>, sdv: SdvSubject, form: MarkableForm) => Promise<void>,
): Promise<FormSdv> {
  const { visitKey, formKey } = target;
  const sdv = await subjectForSdv(db, principal, studyId, target.subjectPk, visitKey, formKey);
  await inTransaction(db, async (trx) => {
    await lockForSdv(trx, sdv.subject, { visitKey, formKey });
    const form = await loadMarkableForm(trx, sdv.definition, sdv.subject.id, visitKey, formKey);
    await change(trx, sdv, form);
    await refreshSubjectFacts(trx, sdv.subject.id, {
      definition: sdv.definition,
      studyId: sdv.subject.study_id,
    });
  });
  return formSdvAfter(db, sdv, visitKey, formKey);
}

/**
 * "Verify" on one form (verify-form.ts, verify-items.ts): `choose` picks the entered items to verify,
 * or refuses with its own answer; nothing chosen is a 409 `sdv_nothing_to_verify`. The chosen items
 * are marked verified by the principal at `at` (default: now), each audited.
 */
export async function verifyChosenItems(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  target: { subjectPk: number; visitKey: string; formKey: string },
  at: Date | undefined,
  choose: (
    trx: Transaction<Database>,
    subject: SubjectWithSite,
    form: MarkableForm,
  ) => Promise<MarkableItem[]>,
): Promise<FormSdv> {
  const { visitKey, formKey } = target;
  return changeFormMarks(db, principal, studyId, target, async (trx, { subject }, form) => {
    const items = await choose(trx, subject, form);
    if (items.length === 0 || form.instanceId === null) throw new AppError(409, 'sdv_nothing_to_verify');
    const instanceId = form.instanceId;
    await markVerified(
      trx,
      principal,
      actor,
      subject,
      { visitKey, formKey, instanceId },
      items,
      at ?? new Date(),
    );
  });
}
