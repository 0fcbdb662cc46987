import type { LiftedHold, LiftHoldRequest } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { presentHoldById } from './hold-presenter.ts';
import { changeRequestedHold, type HoldChange, holdInForceOn } from './hold-targets.ts';

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
  const id = await changeRequestedHold(db, principal, actor, studyId, request, options.at, markHoldLifted);
  return (await presentHoldById(db, id)) as LiftedHold;
}

/** Lifts the hold of the change's kind on its target and audits it, in the caller's transaction. */
export async function markHoldLifted(trx: Transaction<Database>, change: HoldChange): Promise<number> {
  const { principal, actor, target, kind, reason, at = new Date() } = change;
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
