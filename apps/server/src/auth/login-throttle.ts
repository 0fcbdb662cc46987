import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { hitRateLimit } from '../rate-limit/rate-limit.ts';

/**
 * Failed-login throttling, kept in the database so every server process sees the same counts.
 *
 * - Per (email, client address): `maxFailures` failures within `lockoutSeconds` lock that address
 *   out of that email for `lockoutSeconds` (423). Another address is not affected, so nobody can
 *   lock a known account out at will.
 * - Per email, across every address (row with client_ip ''): beyond `maxFailures` consecutive
 *   failures, each further failure makes the next attempt wait 1, 2, 4… seconds, up to
 *   `emailDelayMaxSeconds` (429). This only slows an attacker who spreads attempts over many
 *   addresses; the real user waits seconds at most.
 *
 * Unknown emails are counted exactly like known ones, so the answers do not tell them apart.
 */
const everyAddress = '';

/**
 * Every login attempt (password step and code step) counts against its client address's window;
 * past `LOGIN_RATE_LIMIT` attempts the address gets 429 whatever it sends.
 */
export async function refuseOverLoginRateLimit(
  db: Kysely<Database>,
  config: Config,
  clientIp: string,
  now: Date,
): Promise<void> {
  const rate = await hitRateLimit(
    db,
    `login:${clientIp}`,
    config.login.rateLimit,
    config.login.rateWindowSeconds,
    now,
  );
  if (!rate.allowed) throw new AppError(429, 'too_many_requests');
}

export type LoginThrottle =
  | { kind: 'open' }
  | { kind: 'locked'; until: Date }
  | { kind: 'delayed'; until: Date };

export async function checkLoginThrottle(
  db: Kysely<Database>,
  email: string,
  clientIp: string,
  now: Date,
): Promise<LoginThrottle> {
  const rows = await db
    .selectFrom('login_failures')
    .select(['client_ip', 'locked_until'])
    .where('email', '=', email)
    .where('client_ip', 'in', [clientIp, everyAddress])
    .execute();
  const addressRow = rows.find((row) => row.client_ip === clientIp && clientIp !== everyAddress);
  if (addressRow?.locked_until && addressRow.locked_until > now) {
    return { kind: 'locked', until: addressRow.locked_until };
  }
  const emailRow = rows.find((row) => row.client_ip === everyAddress);
  if (emailRow?.locked_until && emailRow.locked_until > now) {
    return { kind: 'delayed', until: emailRow.locked_until };
  }
  return { kind: 'open' };
}

/** Counts one failure for the address and for the email; says whether the address is now locked. */
export async function countLoginFailure(
  trx: Transaction<Database>,
  login: Config['login'],
  email: string,
  clientIp: string,
  now: Date,
): Promise<{ failureCount: number; lockedUntil: Date | null }> {
  const addressCount = await incrementFailures(trx, login, email, clientIp, now);
  const addressLockedUntil =
    addressCount >= login.maxFailures ? new Date(now.getTime() + login.lockoutSeconds * 1000) : null;
  await setLockedUntil(trx, email, clientIp, addressLockedUntil);

  const emailCount = await incrementFailures(trx, login, email, everyAddress, now);
  const beyond = emailCount - login.maxFailures;
  const delaySeconds = beyond > 0 ? Math.min(login.emailDelayMaxSeconds, 2 ** Math.min(beyond - 1, 20)) : 0;
  await setLockedUntil(
    trx,
    email,
    everyAddress,
    delaySeconds > 0 ? new Date(now.getTime() + delaySeconds * 1000) : null,
  );

  return { failureCount: addressCount, lockedUntil: addressLockedUntil };
}

/** A correct password from this address: its count and the email's count start again. */
export async function clearLoginFailures(
  trx: Transaction<Database>,
  email: string,
  clientIp: string,
): Promise<void> {
  await trx
    .deleteFrom('login_failures')
    .where('email', '=', email)
    .where('client_ip', 'in', [clientIp, everyAddress])
    .execute();
}

async function incrementFailures(
  trx: Transaction<Database>,
  login: Config['login'],
  email: string,
  clientIp: string,
  now: Date,
): Promise<number> {
  const windowStart = new Date(now.getTime() - login.lockoutSeconds * 1000);
  const existing = await trx
    .selectFrom('login_failures')
    .selectAll()
    .where('email', '=', email)
    .where('client_ip', '=', clientIp)
    .forUpdate()
    .executeTakeFirst();
  // Failures older than the lockout period are forgotten, and a served lock starts a new count.
  const fresh =
    !existing ||
    existing.first_failure_at < windowStart ||
    (clientIp !== everyAddress && existing.locked_until !== null);
  const failureCount = fresh ? 1 : existing.failure_count + 1;
  const firstFailureAt = fresh ? now : existing.first_failure_at;
  await trx
    .insertInto('login_failures')
    .values({ email, client_ip: clientIp, failure_count: failureCount, first_failure_at: firstFailureAt })
    .onConflict((conflict) =>
      conflict
        .columns(['email', 'client_ip'])
        .doUpdateSet({ failure_count: failureCount, first_failure_at: firstFailureAt }),
    )
    .execute();
  return failureCount;
}

async function setLockedUntil(
  trx: Transaction<Database>,
  email: string,
  clientIp: string,
  lockedUntil: Date | null,
): Promise<void> {
  await trx
    .updateTable('login_failures')
    .set({ locked_until: lockedUntil })
    .where('email', '=', email)
    .where('client_ip', '=', clientIp)
    .execute();
}
