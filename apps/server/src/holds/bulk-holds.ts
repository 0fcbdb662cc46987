import type { BulkHoldRequest, BulkHoldResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { HOLD_PERMISSION, holdInForceOn, subjectTargetOf } from './hold-targets.ts';
import { markHoldLifted } from './lift-hold.ts';
import { insertHold } from './place-hold.ts';

/**
 * From the readiness board: freeze, lock, unfreeze or unlock each selected subject, all or nothing.
 * Every subject must be visible (404) and within the user's right for the kind (403); when any of
 * them refuses the change (already held, or not held), nothing changes and the 409 lists them in
 * `details.subjectPks`. Each change is audited on its own.
 */
export async function bulkHoldAction(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: BulkHoldRequest,
): Promise<BulkHoldResponse> {
  authorize(principal, 'member', { studyId });
  const subjectPks = [...new Set(request.subjectPks)].sort((a, b) => a - b);
  const reason = request.reason.trim();
  return inTransaction(db, async (trx) => {
    const targets = [];
    for (const subjectPk of subjectPks) {
      const subject = await findSubjectInScope(
        trx,
        principal,
        studyId,
        subjectPk,
        HOLD_PERMISSION[request.kind],
      );
      targets.push(subjectTargetOf(studyId, subject.site_id, subject.id));
    }
    await lockSubjectsInIdOrder(trx, { ids: subjectPks });
    const refused: number[] = [];
    for (const target of targets) {
      const held = (await holdInForceOn(trx, target, request.kind)) !== undefined;
      if (held === (request.action === 'place')) refused.push(target.subjectId as number);
    }
    if (refused.length > 0) {
      const code = request.action === 'place' ? 'hold_already_in_force' : 'hold_not_in_force';
      throw new AppError(409, code, {}, { kind: request.kind, level: 'subject', subjectPks: refused });
    }
    for (const target of targets) {
      const change = { principal, actor, target, kind: request.kind, reason };
      if (request.action === 'place') await insertHold(trx, change);
      else await markHoldLifted(trx, change);
    }
    return { changed: targets.length };
  });
}
