import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import type { Database, SessionRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { hitRateLimit } from '../rate-limit/rate-limit.ts';
import { verifyPassword } from './passwords.ts';
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

/**
 * Signs a user in. Checks in order: the IP's rate limit, the email's lockout, the password.
 * An unknown email, an inactive account and a wrong password get the same answer after the same
 * amount of work (one argon2 verification). Every outcome is audited.
 */
export async function login(
  db: Kysely<Database>,
  config: Config,
  input: LoginInput,
  now = new Date(),
): Promise<{ token: string; session: SessionRow; user: UserRow }> {
  const email = input.email.trim().toLowerCase();
  const actor: AuditActor = {
    userId: null,
    label: email.slice(0, 254),
    ip: input.ip,
    requestId: input.requestId,
  };

  const rate = await hitRateLimit(
    db,
    `login:${input.ip}`,
    config.login.rateLimit,
    config.login.rateWindowSeconds,
    now,
  );
  if (!rate.allowed) throw new AppError(429, 'too_many_requests');

  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  const usable = user?.active ? user : undefined;
  const passwordMatches = await verifyPassword(usable?.password_hash, input.password);

  const failures = await db
    .selectFrom('login_failures')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
  if (failures?.locked_until && failures.locked_until > now) {
    await recordAudit(
      db,
      { ...actor, userId: user?.id ?? null },
      {
        type: 'auth.login_failed',
        entityType: 'user',
        entityId: user?.id ?? null,
        after: { reason: 'locked' },
      },
    );
    throw new AppError(423, 'account_locked', { minutes: minutesUntil(failures.locked_until, now) });
  }

  if (!usable || !passwordMatches) {
    return registerFailure(db, config, email, user, actor, now);
  }

  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('login_failures').where('email', '=', email).execute();
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
    await recordAudit(
      trx,
      { ...actor, userId: usable.id, label: usable.email },
      {
        type: 'auth.login_succeeded',
        entityType: 'session',
        entityId: usable.id,
      },
    );
    return { token, session, user: updated };
  });
}

async function registerFailure(
  db: Kysely<Database>,
  config: Config,
  email: string,
  user: UserRow | undefined,
  actor: AuditActor,
  now: Date,
): Promise<never> {
  const windowStart = new Date(now.getTime() - config.login.lockoutSeconds * 1000);
  const locked = await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('login_failures')
      .selectAll()
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    // Failures older than the lockout period are forgotten: the count starts again.
    const fresh = !existing || existing.first_failure_at < windowStart || existing.locked_until !== null;
    const failureCount = fresh ? 1 : existing.failure_count + 1;
    const lockedUntil =
      failureCount >= config.login.maxFailures
        ? new Date(now.getTime() + config.login.lockoutSeconds * 1000)
        : null;
    await trx
      .insertInto('login_failures')
      .values({
        email,
        failure_count: failureCount,
        first_failure_at: fresh ? now : existing.first_failure_at,
        locked_until: lockedUntil,
      })
      .onConflict((conflict) =>
        conflict.column('email').doUpdateSet({
          failure_count: failureCount,
          first_failure_at: fresh ? now : existing.first_failure_at,
          locked_until: lockedUntil,
        }),
      )
      .execute();
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

function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}
