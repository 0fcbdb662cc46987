import type { LiftedHold, LiftHoldRequest } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { presentHoldById } from './hold-presenter.ts';
import {
  holdInForceOn,
  lockCoveredSubjects,
  type ResolvedTarget,
  resolveHoldTarget,
} from './hold-targets.ts';

/**
 * Unfreeze or unlock one target, with a reason: the same rights as placing. A target not held by
 * that kind is a 409 `hold_not_in_force`. The row is kept, with who lifted it, when and why.
 */
export async function liftHold(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: LiftHoldRequest,
  options: { at?: Date } = {},
): Promise<LiftedHold> {
  const target = await resolveHoldTarget(db, principal, studyId, request.kind, request.target);
  const id = await inTransaction(db, async (trx) => {
    await lockCoveredSubjects(trx, target);
    return markHoldLifted(trx, principal, actor, target, request.kind, request.reason.trim(), options.at);
  });
  return (await presentHoldById(db, id)) as LiftedHold;
}

/** Lifts the hold of `kind` on the target and audits it, in the caller's transaction. */
export async function markHoldLifted(
  trx: Transaction<Database>,
  principal: Principal,
  actor: AuditActor,
  target: ResolvedTarget,
  kind: 'frozen' | 'locked',
  reason: string,
  at: Date = new Date(),
): Promise<number> {
  const hold = await holdInForceOn(trx, target, kind);
  if (!hold) throw new AppError(409, 'hold_not_in_force', {}, { kind, level: target.level });
  await updateRowAudited(
    trx,
    actor,
    {
      table: 'holds',
      id: hold.id,
      set: { lifted_by: principal.user.id, lifted_at: at, lifted_reason: reason },
    },
    {
      type: 'hold.lifted',
      studyId: target.studyId,
      siteId: target.siteId,
      subjectId: target.subjectId,
      before: {
        kind,
        level: target.level,
        placedAt: hold.placed_at.toISOString(),
        placedReason: hold.placed_reason,
      },
      after: { lifted: true },
      reason,
    },
  );
  return hold.id;
}
