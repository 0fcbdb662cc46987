import type { Kysely } from 'kysely';
import { verifyPassword } from '../auth/passwords.ts';
import { confirmedSecondFactor, useSecondFactorCode } from '../auth/second-factor.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { hitRateLimit } from '../rate-limit/rate-limit.ts';

/**
 * Wrong signing passwords a user may enter in a window before signing is refused until the window
 * ends: the same numbers as the login lockout's defaults (5 in 15 minutes). Only signing is
 * stopped, not the session; counters live in the database, shared by every server process. Every
 * e-signature counts in the same window: a casebook signature, a study's go-live approval.
 */
export const SIGNATURE_FAILURE_LIMIT = 5;
export const SIGNATURE_FAILURE_WINDOW_SECONDS = 15 * 60;

const failureKey = (userId: number) => `signature-failures:${userId}`;

/** The 422s of `verifySigningCredentials`, for the OpenAPI document of every route that signs. */
export const SIGNING_CREDENTIALS_REFUSAL =
  'The password is wrong (`signature_password_incorrect`), or a code is needed (`signature_code_required`) or wrong (`wrong_second_factor_code`).';

/** Why a signature was refused before anything was signed; the caller audits it with its own scope. */
export type SigningFailure =
  | { reason: 'too_many_attempts' }
  | { reason: 'wrong_password' | 'wrong_code'; failureCount: number };

export interface SigningCredentials {
  password: string;
  /** The authenticator code, required when the signer has two-factor sign-in. */
  code?: string | undefined;
}

/** The wrong passwords counted in the current window (the windows of `hitRateLimit`). */
async function recentFailures(db: Kysely<Database>, userId: number, now: Date): Promise<number> {
  const windowMs = SIGNATURE_FAILURE_WINDOW_SECONDS * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('key', '=', failureKey(userId))
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.count ?? 0;
}

/**
 * The signer proves who they are again (21 CFR 11.200(a)(1)): their password, and their
 * authenticator code when they have two-factor sign-in. Run before the signing transaction (argon2
 * is slow, and no lock should wait on it). A refusal is counted in the signer's failure window
 * (429 after the limit), handed to `auditFailure` — which records it in a transaction of its own —
 * and thrown; nothing else of the attempt is kept.
 */
export async function verifySigningCredentials(
  db: Kysely<Database>,
  user: UserRow,
  credentials: SigningCredentials,
  now: Date,
  auditFailure: (failure: SigningFailure) => Promise<void>,
): Promise<void> {
  if ((await recentFailures(db, user.id, now)) >= SIGNATURE_FAILURE_LIMIT) {
    await auditFailure({ reason: 'too_many_attempts' });
    throw new AppError(429, 'too_many_signature_attempts', {
      minutes: Math.round(SIGNATURE_FAILURE_WINDOW_SECONDS / 60),
    });
  }
  const refuse = async (reason: 'wrong_password' | 'wrong_code'): Promise<never> => {
    const { count } = await hitRateLimit(
      db,
      failureKey(user.id),
      SIGNATURE_FAILURE_LIMIT,
      SIGNATURE_FAILURE_WINDOW_SECONDS,
      now,
    );
    await auditFailure({ reason, failureCount: count });
    throw new AppError(
      422,
      reason === 'wrong_password' ? 'signature_password_incorrect' : 'wrong_second_factor_code',
    );
  };
  if (!(await verifyPassword(user.password_hash, credentials.password))) await refuse('wrong_password');
  // A used code is refused like a wrong one.
  if (await confirmedSecondFactor(db, user.id)) {
    if (!credentials.code) throw new AppError(422, 'signature_code_required');
    const code = credentials.code;
    const accepted = await inTransaction(db, (trx) => useSecondFactorCode(trx, user.id, code, now));
    if (!accepted) await refuse('wrong_code');
  }
}
