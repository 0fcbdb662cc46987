import type { VerifyVisitRequest, VerifyVisitResponse } from '@cdms/contract';
import { resolveVisit } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { loadMarkableForm } from '../sdv-state/form-sdv.ts';
import { lockLiveSubject } from '../subjects/lock-live-subject.ts';
import { markVerified, subjectForSdv, unverifiedPlannedItems } from './sdv-marking.ts';

/**
 * `POST /api/studies/:studyId/sdv/verify-visit`: "verify form" for every form of the visit, in one
 * transaction. Each form is checked against the holds on its own (a locked form refuses the whole
 * call: all or nothing). Nothing left in the plan is a 409 `sdv_nothing_to_verify`.
 */
export async function verifyVisit(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: VerifyVisitRequest,
  options: { at?: Date } = {},
): Promise<VerifyVisitResponse> {
  const { visitKey } = request;
  const sdv = await subjectForSdv(db, principal, studyId, request.subjectPk, visitKey);
  const visit = resolveVisit(sdv.definition, visitKey);
  const at = options.at ?? new Date();
  return inTransaction(db, async (trx) => {
    await lockLiveSubject(trx, sdv.subject.id);
    let verified = 0;
    let forms = 0;
    for (const formKey of visit?.forms ?? []) {
      const form = await loadMarkableForm(trx, sdv.definition, sdv.subject.id, visitKey, formKey);
      const items = await unverifiedPlannedItems(trx, sdv.subject, form);
      if (items.length === 0 || form.instanceId === null) continue;
      await refuseWriteUnderHolds(trx, 'sdv.mark', subjectTarget(sdv.subject, { visitKey, formKey }));
      await markVerified(
        trx,
        principal,
        actor,
        sdv.subject,
        { visitKey, formKey, instanceId: form.instanceId },
        items,
        at,
      );
      verified += items.length;
      forms += 1;
    }
    if (verified === 0) throw new AppError(409, 'sdv_nothing_to_verify');
    // The subject's SDV counts in the read model (progress, board, popup) change with the marks.
    await refreshSubjectFacts(trx, sdv.subject.id, {
      definition: sdv.definition,
      studyId: sdv.subject.study_id,
    });
    return { verified, forms };
  });
}
