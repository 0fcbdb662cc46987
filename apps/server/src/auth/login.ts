import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, SessionRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import {
  checkLoginThrottle,
  clearLoginFailures,
  countLoginFailure,
  refuseOverLoginRateLimit,
} from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import { type PendingSecondFactor, startSecondFactorStepIfEnrolled } from './second-factor-login.ts';
import { createSession, deleteSession, hashSessionToken } from './sessions.ts';

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string;
  requestId: string;
  /** The session cookie the browser already had, if any: it is ended (no session fixation). */
  previousToken: string | undefined;
}

export interface LoginResult {
  secondFactorRequired: false;
  token: string;
  session: SessionRow;
  user: UserRow;
}

/**
 * Signs a user in. Checks in order: the IP's rate limit, the lockout of this email at this address
 * and the email's slow-down (login-throttle.ts), the password.
 * An unknown email, an inactive account and a wrong password get the same answer after the same
 * amount of work (one argon2 verification). Every outcome is audited.
 */
export async function login(
  db: Kysely<Database>,
  config: Config,
  input: LoginInput,
  now = new Date(),
): Promise<LoginResult | PendingSecondFactor> {
  const email = input.email.trim().toLowerCase();
  const actor: AuditActor = {
    userId: null,
    label: email.slice(0, 254),
    ip: input.ip,
    requestId: input.requestId,
  };

  await refuseOverLoginRateLimit(db, config, input.ip, now);

  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  const usable = user?.active ? user : undefined;
  const passwordMatches = await verifyPassword(usable?.password_hash, input.password);

  // Checked after the password hash so that a refused attempt costs the same work as any other.
  const throttle = await checkLoginThrottle(db, email, input.ip, now);
  if (throttle.kind !== 'open') {
    await recordAudit(
      db,
      { ...actor, userId: user?.id ?? null },
      {
        type: 'auth.login_failed',
        entityType: 'user',
        entityId: user?.id ?? null,
        after: { reason: throttle.kind },
      },
    );
    if (throttle.kind === 'locked') {
      throw new AppError(423, 'account_locked', { minutes: minutesUntil(throttle.until, now) });
    }
    throw new AppError(429, 'login_delayed', { seconds: secondsUntil(throttle.until, now) });
  }

  if (!usable || !passwordMatches) {
    return registerFailure(db, config, email, user, actor, now);
  }

  // A user with a second factor gets only a short-lived token for the code step, no session yet.
  const pending = await startSecondFactorStepIfEnrolled(db, usable, { ...actor, userId: usable.id }, now);
  if (pending) return pending;

  return startSession(db, config, usable, input, { ...actor, userId: usable.id, label: usable.email }, now);
}

/** The password (and second factor, if any) have been accepted: the session starts. */
export async function startSession(
  db: Kysely<Database>,
  config: Config,
  usable: UserRow,
  input: Pick<LoginInput, 'ip' | 'userAgent' | 'previousToken'>,
  actor: AuditActor,
  now: Date,
): Promise<LoginResult> {
  const email = usable.email;
  return inTransaction(db, async (trx) => {
    await clearLoginFailures(trx, email, input.ip);
    if (input.previousToken) await deleteSession(trx, hashSessionToken(input.previousToken));
    const updated = await trx
      .updateTable('users')
      .set({ previous_login_at: usable.last_login_at, last_login_at: now })
      .where('id', '=', usable.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const { token, session } = await createSession(
      trx,
      config.session,
      {
        userId: usable.id,
        ip: input.ip,
        userAgent: input.userAgent,
      },
      now,
    );
    await recordAudit(trx, actor, {
      type: 'auth.login_succeeded',
      entityType: 'session',
      entityId: usable.id,
    });
    return { secondFactorRequired: false as const, token, session, user: updated };
  });
}

export async function registerFailure(
  db: Kysely<Database>,
  config: Config,
  email: string,
  user: UserRow | undefined,
  actor: AuditActor,
  now: Date,
): Promise<never> {
  const locked = await inTransaction(db, async (trx) => {
    const { failureCount, lockedUntil } = await countLoginFailure(trx, config.login, email, actor.ip, now);
    const auditActor = { ...actor, userId: user?.id ?? null };
    await recordAudit(trx, auditActor, {
      type: 'auth.login_failed',
      entityType: 'user',
      entityId: user?.id ?? null,
      after: {
        reason: user ? (user.active ? 'wrong_password' : 'inactive_account') : 'unknown_email',
        failureCount,
      },
    });
    if (lockedUntil) {
      await recordAudit(trx, auditActor, {
        type: 'auth.account_locked',
        entityType: 'user',
        entityId: user?.id ?? null,
        after: { lockedUntil: lockedUntil.toISOString(), failureCount },
      });
    }
    return lockedUntil;
  });
  if (locked) throw new AppError(423, 'account_locked', { minutes: minutesUntil(locked, now) });
  throw new AppError(401, 'invalid_credentials');
}

function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}
