import type { HoldInForce, PlaceHoldRequest } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { notifySiteHold } from '../notifications/notify-hold.ts';
import { presentHoldById } from './hold-presenter.ts';
import { changeRequestedHold, type HoldChange, holdInForceOn } from './hold-targets.ts';

/**
 * Freeze or lock one target (CRA, DM freeze; DM locks): validate → authorize → the hold and its audit
 * record in one transaction. A target already held by the same kind is a 409
 * `hold_already_in_force`; the other kind may stand beside it (a frozen subject is then locked).
 */
export async function placeHold(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: PlaceHoldRequest,
  options: { at?: Date } = {},
): Promise<HoldInForce> {
  try {
    const id = await changeRequestedHold(db, principal, actor, studyId, request, options.at, insertHold);
    return presentHoldById(db, id);
  } catch (error) {
    // Two people placing the same hold at once: the index lets one through.
    if (isUniqueViolation(error, 'holds_one_in_force_idx')) {
      throw new AppError(
        409,
        'hold_already_in_force',
        {},
        { kind: request.kind, level: request.target.level },
      );
    }
    throw error;
  }
}

/** The hold row and its audit record, in the caller's transaction (the bulk action runs it per subject). */
export async function insertHold(trx: Transaction<Database>, change: HoldChange): Promise<number> {
  const { principal, actor, target, kind, reason, at = new Date() } = change;
  if (await holdInForceOn(trx, target, kind)) {
    throw new AppError(409, 'hold_already_in_force', {}, { kind, level: target.level });
  }
  const hold = await trx
    .insertInto('holds')
    .values({
      study_id: target.studyId,
      kind,
      level: target.level,
      site_id: target.siteId,
      subject_id: target.subjectId,
      visit_key: target.visitKey,
      form_key: target.formKey,
      target_key: target.targetKey,
      placed_by: principal.user.id,
      placed_at: at,
      placed_reason: reason,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordAudit(trx, actor, {
    type: 'hold.placed',
    entityType: 'hold',
    entityId: hold.id,
    studyId: target.studyId,
    siteId: target.siteId,
    subjectId: target.subjectId,
    after: { kind, level: target.level, visitKey: target.visitKey, formKey: target.formKey },
    reason,
  });
  await notifySiteHold(
    trx,
    { id: hold.id, studyId: target.studyId, level: target.level, siteId: target.siteId, kind },
    reason,
    principal.user.id,
  );
  return hold.id;
}
