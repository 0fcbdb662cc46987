import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { countRateLimitHits, hitRateLimit } from '../rate-limit/rate-limit.ts';
import { verifyPassword } from './passwords.ts';
import { confirmedSecondFactor, useSecondFactorCode } from './second-factor.ts';

/** Wrong passwords or codes a user may give per window before changes to the factor pause. */
const FAILURE_LIMIT = 5;
const FAILURE_WINDOW_SECONDS = 15 * 60;

/**
 * Changes to an enrolled second factor (new recovery codes, turning it off) ask for both the password
 * and a current app code: an open session alone, or a stolen password alone, must not weaken the
 * account. Wrong answers are counted per user (429 past the limit) and audited; the change runs in
 * the same transaction that spends the code, so a code is never spent without the change.
 */
export async function withPasswordAndCode<T>(
  db: Kysely<Database>,
  user: UserRow,
  actor: AuditActor,
  answers: { password: string; code: string },
  change: (trx: Transaction<Database>) => Promise<T>,
  now = new Date(),
): Promise<T> {
  if (!(await confirmedSecondFactor(db, user.id))) throw new AppError(409, 'second_factor_not_enrolled');
  const key = failureKey(user.id);
  if ((await countRateLimitHits(db, key, FAILURE_WINDOW_SECONDS, now)) >= FAILURE_LIMIT) {
    throw new AppError(429, 'too_many_second_factor_attempts', { minutes: FAILURE_WINDOW_SECONDS / 60 });
  }
  // Checked before the transaction: argon2 is slow, and no lock should wait on it.
  if (!(await verifyPassword(user.password_hash, answers.password))) {
    return refuse(db, actor, user.id, 'wrong_password', now);
  }
  const outcome = await inTransaction(db, async (trx) => {
    if (!(await useSecondFactorCode(trx, user.id, answers.code, now))) return { accepted: false as const };
    return { accepted: true as const, result: await change(trx) };
  });
  if (!outcome.accepted) return refuse(db, actor, user.id, 'wrong_code', now);
  return outcome.result;
}

function failureKey(userId: number): string {
  return `second-factor-change:${userId}`;
}

async function refuse(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: number,
  reason: 'wrong_password' | 'wrong_code',
  now: Date,
): Promise<never> {
  const { count } = await hitRateLimit(db, failureKey(userId), FAILURE_LIMIT, FAILURE_WINDOW_SECONDS, now);
  await recordAudit(db, actor, {
    type: 'auth.second_factor_check_failed',
    entityType: 'user',
    entityId: userId,
    after: { reason, failureCount: count },
  });
  throw new AppError(
    422,
    reason === 'wrong_password' ? 'current_password_incorrect' : 'wrong_second_factor_code',
  );
}
