import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** How many recovery codes a user gets at enrolment and at each regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/**
 * 32 symbols (5 bits each) without the look-alikes 0/O and 1/I: easy to read off paper.
 * Eight symbols per code = 40 random bits, written `XXXX-XXXX`.
 */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

/** Ten fresh codes, as the user sees them (`XXXX-XXXX`). */
export function generateRecoveryCodeTexts(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // One random byte per symbol; 256 is a multiple of 32, so `% 32` is unbiased.
    const symbols = [...randomBytes(CODE_LENGTH)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
    return `${symbols.slice(0, 4)}-${symbols.slice(4)}`;
  });
}

/** What the user typed, in the stored form: upper case, no spaces or hyphens; undefined if it cannot be a code. */
export function normaliseRecoveryCode(typed: string): string | undefined {
  const compact = typed.replace(/[\s-]/g, '').toUpperCase();
  if (compact.length !== CODE_LENGTH) return undefined;
  return [...compact].every((symbol) => ALPHABET.includes(symbol)) ? compact : undefined;
}

/**
 * SHA-256 rather than argon2: each code carries 40 random bits (not a guessable password), it is
 * only ever tried after the password (argon2) is accepted, online guessing meets the login lockout,
 * and whoever could read this table could read the TOTP secret next to it anyway. The user id is
 * part of the hashed text so equal codes of two users do not share a hash.
 */
export function hashRecoveryCode(userId: number, normalised: string): string {
  return createHash('sha256').update(`${userId}:${normalised}`).digest('hex');
}

/**
 * Replaces the user's recovery codes with a fresh set (the old ones stop working), audits it as
 * `event` with how many there are (never the codes), and returns the new codes: the only time they
 * are ever seen. Runs in the caller's transaction.
 */
export async function replaceRecoveryCodes(
  trx: Transaction<Database>,
  actor: AuditActor,
  userId: number,
  now: Date,
  event: 'auth.second_factor_enrolled' | 'auth.second_factor_recovery_codes_regenerated',
): Promise<{ recoveryCodes: string[] }> {
  const codes = generateRecoveryCodeTexts();
  await trx.deleteFrom('second_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('second_factor_recovery_codes')
    .values(
      codes.map((code) => ({
        user_id: userId,
        code_hash: hashRecoveryCode(userId, normaliseRecoveryCode(code) as string),
        created_at: now,
        used_at: null,
      })),
    )
    .execute();
  await recordAudit(trx, actor, {
    type: event,
    entityType: 'user',
    entityId: userId,
    after: { recoveryCodes: codes.length },
  });
  return { recoveryCodes: codes };
}

/**
 * Spends one unused recovery code: marks it used (in the caller's transaction, so a failed login
 * leaves it unspent) and returns how many unused codes remain; undefined when the code is not one
 * of the user's unused codes.
 */
export async function spendRecoveryCode(
  trx: Transaction<Database>,
  userId: number,
  typed: string,
  now: Date,
): Promise<number | undefined> {
  const normalised = normaliseRecoveryCode(typed);
  if (!normalised) return undefined;
  const spent = await trx
    .updateTable('second_factor_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashRecoveryCode(userId, normalised))
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!spent) return undefined;
  return countUnusedRecoveryCodes(trx, userId);
}

/** How many of the user's recovery codes are still unused (the user popup shows it). */
export async function countUnusedRecoveryCodes(executor: Executor, userId: number): Promise<number> {
  const row = await executor
    .selectFrom('second_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
