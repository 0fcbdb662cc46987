import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Principal } from './principal.ts';
import { secondFactorRequiredFor } from './second-factor-enrolment-gate.ts';
import { withPasswordAndCode } from './second-factor-reverification.ts';

/**
 * The user turns their own second factor off (password and a current app code required); the
 * recovery codes go with it. Refused while the system setting requires a second factor for the
 * user's role: only a system administrator's reset can remove it then.
 */
export async function turnOffSecondFactor(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  answers: { password: string; code: string },
  now = new Date(),
): Promise<void> {
  if (await secondFactorRequiredFor(db, principal))
    throw new AppError(409, 'second_factor_required_for_role');
  const userId = principal.user.id;
  await withPasswordAndCode(
    db,
    principal.user,
    actor,
    answers,
    async (trx) => {
      // Recovery codes are removed by the foreign key's cascade.
      await trx.deleteFrom('user_second_factors').where('user_id', '=', userId).execute();
      await trx.deleteFrom('pending_logins').where('user_id', '=', userId).execute();
      await recordAudit(trx, actor, {
        type: 'auth.second_factor_turned_off',
        entityType: 'user',
        entityId: userId,
        before: { secondFactorEnrolled: true },
        after: { secondFactorEnrolled: false },
      });
    },
    now,
  );
}
