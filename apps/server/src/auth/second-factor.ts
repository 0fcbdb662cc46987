import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { verifyPassword } from './passwords.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';
import { hashSessionToken } from './sessions.ts';

type Executor = Kysely<Database> | Transaction<Database>;

const ISSUER = 'CDMS';
/** How long a password-accepted login waits for its code. */
export const PENDING_LOGIN_SECONDS = 5 * 60;
/** One time step either side of now: clocks of phones drift. */
const EPOCH_TOLERANCE_SECONDS = 30;

/** The user's confirmed second factor, or undefined when the user signs in with a password alone. */
export async function confirmedSecondFactor(executor: Executor, userId: number) {
  return executor
    .selectFrom('user_second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
}

/**
 * Starts (or restarts) enrolment: a new secret, not yet in force. The password is asked again so
 * that an unattended open session cannot bind the account to someone else's phone.
 */
export async function startEnrolment(
  db: Kysely<Database>,
  user: UserRow,
  actor: AuditActor,
  password: string,
  now = new Date(),
): Promise<{ otpauthUri: string; secret: string; qrCodeDataUrl: string }> {
  if (!(await verifyPassword(user.password_hash, password)))
    throw new AppError(422, 'current_password_incorrect');
  if (await confirmedSecondFactor(db, user.id)) throw new AppError(409, 'second_factor_already_enrolled');
  const secret = generateSecret();
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('user_second_factors')
      .values({ user_id: user.id, secret, created_at: now, confirmed_at: null, last_time_step: null })
      .onConflict((conflict) =>
        conflict
          .column('user_id')
          .doUpdateSet({ secret, created_at: now, confirmed_at: null, last_time_step: null }),
      )
      .execute();
    await recordAudit(trx, actor, {
      type: 'auth.second_factor_enrolment_started',
      entityType: 'user',
      entityId: user.id,
    });
  });
  const otpauthUri = generateURI({ issuer: ISSUER, label: user.email, secret });
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 });
  return { otpauthUri, secret, qrCodeDataUrl };
}

/**
 * Confirms a pending enrolment with a first code; from then on the password alone no longer signs in.
 * Returns the user's recovery codes: the only time they are shown.
 */
export async function confirmEnrolment(
  db: Kysely<Database>,
  user: UserRow,
  actor: AuditActor,
  code: string,
  now = new Date(),
): Promise<{ recoveryCodes: string[] }> {
  return inTransaction(db, async (trx) => {
    const factor = await trx
      .selectFrom('user_second_factors')
      .selectAll()
      .where('user_id', '=', user.id)
      .forUpdate()
      .executeTakeFirst();
    if (!factor || factor.confirmed_at) throw new AppError(409, 'second_factor_not_pending');
    const timeStep = await acceptedTimeStep(factor.secret, code, factor.last_time_step, now);
    if (timeStep === undefined) throw new AppError(422, 'wrong_second_factor_code');
    await trx
      .updateTable('user_second_factors')
      .set({ confirmed_at: now, last_time_step: timeStep })
      .where('user_id', '=', user.id)
      .execute();
    return replaceRecoveryCodes(trx, actor, user.id, now, 'auth.second_factor_enrolled');
  });
}

/**
 * Checks a code against the user's confirmed factor and, when right, records its time step so the
 * same code cannot be used again. Returns false for a wrong or replayed code (the caller audits and
 * counts the failure).
 */
export async function useSecondFactorCode(
  trx: Transaction<Database>,
  userId: number,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const factor = await trx
    .selectFrom('user_second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .forUpdate()
    .executeTakeFirst();
  if (!factor) return false;
  const timeStep = await acceptedTimeStep(factor.secret, code, factor.last_time_step, now);
  if (timeStep === undefined) return false;
  await trx
    .updateTable('user_second_factors')
    .set({ last_time_step: timeStep })
    .where('user_id', '=', userId)
    .execute();
  return true;
}

async function acceptedTimeStep(
  secret: string,
  code: string,
  lastTimeStep: number | null,
  now: Date,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: EPOCH_TOLERANCE_SECONDS,
    // A code whose time step was already used (or an earlier one) is refused: no replay.
    ...(lastTimeStep === null ? {} : { afterTimeStep: lastTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** A password has been accepted for a user with a second factor: a token for the code step. */
export async function createPendingLogin(
  trx: Transaction<Database>,
  userId: number,
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await trx.deleteFrom('pending_logins').where('expires_at', '<', now).execute();
  await trx
    .insertInto('pending_logins')
    .values({
      token_hash: hashSessionToken(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + PENDING_LOGIN_SECONDS * 1000),
    })
    .execute();
  return token;
}

/** The user a live pending-login token belongs to, or undefined when unknown or expired. */
export async function findPendingLogin(executor: Executor, token: string, now = new Date()) {
  return executor
    .selectFrom('pending_logins')
    .selectAll()
    .where('token_hash', '=', hashSessionToken(token))
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
