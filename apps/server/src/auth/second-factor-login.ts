import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { type LoginInput, type LoginResult, registerFailure, startSession } from './login.ts';
import { checkLoginThrottle, refuseOverLoginRateLimit } from './login-throttle.ts';
import { spendRecoveryCode } from './recovery-codes.ts';
import {
  confirmedSecondFactor,
  createPendingLogin,
  findPendingLogin,
  useSecondFactorCode,
} from './second-factor.ts';
import { hashSessionToken } from './sessions.ts';

export interface PendingSecondFactor {
  secondFactorRequired: true;
  pendingToken: string;
}

/** After a correct password: when the user has a confirmed second factor, the code step comes next. */
export async function startSecondFactorStepIfEnrolled(
  db: Kysely<Database>,
  user: UserRow,
  actor: AuditActor,
  now: Date,
): Promise<PendingSecondFactor | undefined> {
  if (!(await confirmedSecondFactor(db, user.id))) return undefined;
  const pendingToken = await inTransaction(db, async (trx) => {
    const token = await createPendingLogin(trx, user.id, now);
    await recordAudit(trx, actor, {
      type: 'auth.second_factor_requested',
      entityType: 'user',
      entityId: user.id,
    });
    return token;
  });
  return { secondFactorRequired: true, pendingToken };
}

/**
 * The code step of a two-step login: a live pending-login token and a right code start the session
 * exactly as a password-only login does. An unused recovery code is accepted instead of the app's code
 * (and spent). A wrong code counts as a failed login (lockout, rate limit).
 */
export async function completeSecondFactorLogin(
  db: Kysely<Database>,
  config: Config,
  input: Pick<LoginInput, 'ip' | 'userAgent' | 'requestId' | 'previousToken'> & {
    pendingToken: string;
    code: string;
  },
  now = new Date(),
): Promise<LoginResult> {
  await refuseOverLoginRateLimit(db, config, input.ip, now);

  const pending = await findPendingLogin(db, input.pendingToken, now);
  if (!pending) throw new AppError(401, 'second_factor_login_expired');
  const user = await db.selectFrom('users').selectAll().where('id', '=', pending.user_id).executeTakeFirst();
  if (!user?.active) throw new AppError(401, 'second_factor_login_expired');
  const actor: AuditActor = { userId: user.id, label: user.email, ip: input.ip, requestId: input.requestId };

  // The same lockout and slow-down as the password step: a code cannot be guessed around them.
  const throttle = await checkLoginThrottle(db, user.email, input.ip, now);
  if (throttle.kind === 'locked') {
    throw new AppError(423, 'account_locked', { minutes: minutesUntil(throttle.until, now) });
  }
  if (throttle.kind === 'delayed') {
    throw new AppError(429, 'login_delayed', {
      seconds: Math.max(1, Math.ceil((throttle.until.getTime() - now.getTime()) / 1000)),
    });
  }

  const accepted = await inTransaction(db, async (trx) => {
    let right = await useSecondFactorCode(trx, user.id, input.code, now);
    if (!right) {
      // A recovery code stands in for the app's code (a lost phone); spent here, once.
      const remaining = await spendRecoveryCode(trx, user.id, input.code, now);
      if (remaining !== undefined) {
        right = true;
        await recordAudit(trx, actor, {
          type: 'auth.second_factor_recovery_code_used',
          entityType: 'user',
          entityId: user.id,
          after: { remainingRecoveryCodes: remaining },
        });
      }
    }
    if (right) {
      await trx
        .deleteFrom('pending_logins')
        .where('token_hash', '=', hashSessionToken(input.pendingToken))
        .execute();
    }
    return right;
  });
  if (!accepted) {
    await recordAudit(db, actor, {
      type: 'auth.second_factor_failed',
      entityType: 'user',
      entityId: user.id,
    });
    // registerFailure audits the failed login and answers 401 (or 423 once the account locks).
    await registerFailure(db, config, user.email, user, actor, now).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'invalid_credentials') {
        throw new AppError(401, 'wrong_second_factor_code');
      }
      throw error;
    });
  }
  return startSession(db, config, user, input, actor, now);
}

function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}
