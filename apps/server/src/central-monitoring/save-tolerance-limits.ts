import type { saveToleranceLimitsRequestSchema, ToleranceLimit } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { readToleranceLimits } from './tolerance-limits.ts';

type SaveLimitsInput = z.output<typeof saveToleranceLimitsRequestSchema>;

/**
 * Data management sets the study's quality tolerance limits of the indicators it names (the others
 * keep theirs), with a reason: validated (each indicator once; on its risky side the limit is past the
 * warning: 422 `monitoring_limits_invalid`), then stored and audited with the limits before and after
 * in one transaction. Answers the study's limits as they now are.
 */
export async function saveToleranceLimits(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: SaveLimitsInput,
): Promise<ToleranceLimit[]> {
  const keys = new Set(request.limits.map((limit) => limit.key));
  if (keys.size !== request.limits.length) throw new AppError(422, 'monitoring_limits_invalid');
  for (const limit of request.limits) {
    const ordered = limit.direction === 'high' ? limit.limit >= limit.warning : limit.limit <= limit.warning;
    if (!ordered) throw new AppError(422, 'monitoring_limits_invalid');
  }
  return inTransaction(db, async (trx) => {
    // The study's row: one limits change at a time.
    await trx.selectFrom('studies').select('id').where('id', '=', studyId).forUpdate().executeTakeFirst();
    const before = await readToleranceLimits(trx, studyId);
    for (const limit of request.limits)
      await trx
        .insertInto('monitoring_limits')
        .values({
          study_id: studyId,
          key: limit.key,
          warning: limit.warning,
          limit: limit.limit,
          direction: limit.direction,
          minimum_denominator: limit.minimumDenominator,
          updated_by: principal.user.id,
        })
        .onConflict((conflict) =>
          conflict.columns(['study_id', 'key']).doUpdateSet({
            warning: limit.warning,
            limit: limit.limit,
            direction: limit.direction,
            minimum_denominator: limit.minimumDenominator,
            updated_by: principal.user.id,
            updated_at: new Date(),
          }),
        )
        .execute();
    const after = await readToleranceLimits(trx, studyId);
    await recordAudit(trx, actor, {
      type: 'monitoring.limits_changed',
      entityType: 'monitoring_limits',
      entityId: studyId,
      studyId,
      before: { limits: before.filter((limit) => keys.has(limit.key)) },
      after: { limits: after.filter((limit) => keys.has(limit.key)) },
      reason: request.reason,
    });
    return after;
  });
}
