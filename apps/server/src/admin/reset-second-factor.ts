import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * A system administrator removes a user's second factor (a lost phone): the user signs in with the
 * password alone until they enrol again. Logins waiting for a code are dropped with it.
 */
export async function resetSecondFactor(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError(404, 'not_found');
    const removed = await trx
      .deleteFrom('user_second_factors')
      .where('user_id', '=', userId)
      .returning('confirmed_at')
      .executeTakeFirst();
    await trx.deleteFrom('pending_logins').where('user_id', '=', userId).execute();
    await recordAudit(trx, actor, {
      type: 'user.second_factor_reset',
      entityType: 'user',
      entityId: userId,
      before: { secondFactorEnrolled: removed?.confirmed_at != null },
      after: { secondFactorEnrolled: false },
    });
  });
}
