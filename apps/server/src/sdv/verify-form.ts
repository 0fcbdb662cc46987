import type { FormSdv, VerifyFormRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { loadMarkableForm } from '../sdv-state/form-sdv.ts';
import {
  formSdvAfter,
  lockForSdv,
  markVerified,
  subjectForSdv,
  unverifiedPlannedItems,
} from './sdv-marking.ts';

/**
 * `POST /api/studies/:studyId/sdv/verify-form`: "verify form" marks every entered item of the form
 * that the plan counts for this subject and that is not verified (never, or changed since). Nothing
 * left is a 409 `sdv_nothing_to_verify`. Items outside the plan are verified one by one (verify-items).
 */
export async function verifyForm(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: VerifyFormRequest,
  options: { at?: Date } = {},
): Promise<FormSdv> {
  const { visitKey, formKey } = request;
  const sdv = await subjectForSdv(db, principal, studyId, request.subjectPk, visitKey, formKey);
  await inTransaction(db, async (trx) => {
    await lockForSdv(trx, sdv.subject, { visitKey, formKey });
    const form = await loadMarkableForm(trx, sdv.definition, sdv.subject.id, visitKey, formKey);
    const items = await unverifiedPlannedItems(trx, sdv.subject, form);
    if (items.length === 0 || form.instanceId === null) throw new AppError(409, 'sdv_nothing_to_verify');
    await markVerified(
      trx,
      principal,
      actor,
      sdv.subject,
      { visitKey, formKey, instanceId: form.instanceId },
      items,
      options.at ?? new Date(),
    );
    // The subject's SDV counts in the read model (progress, board, popup) change with the marks.
    await refreshSubjectFacts(trx, sdv.subject.id, {
      definition: sdv.definition,
      studyId: sdv.subject.study_id,
    });
  });
  return formSdvAfter(db, sdv, visitKey, formKey);
}
