import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, SessionRow } from '../db/schema.ts';

export const SESSION_COOKIE = 'cdms_session';

export interface SessionSettings {
  idleSeconds: number;
  maxSeconds: number;
}

/**
 * A write is activity and pushes the session's idle expiry out to a full idle period, but only
 * when that gains more than this: writes in quick succession (a coordinator saving form after form)
 * would otherwise each rewrite the session's row and commit it, one more write transaction for
 * PostgreSQL on every save (issue 12: ~0.15 ms of its ~1.6 ms a save). A session may so end up to
 * a minute before a full idle period after its last write. Renewing (the header's "extend") always
 * extends in full.
 */
export const SESSION_EXTENSION_STEP_SECONDS = 60;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Starts a session; returns the token for the cookie (only its hash is stored). */
export async function createSession(
  executor: Kysely<Database> | Transaction<Database>,
  settings: SessionSettings,
  values: { userId: number; ip: string; userAgent: string },
  now = new Date(),
): Promise<{ token: string; session: SessionRow }> {
  const token = randomBytes(32).toString('base64url');
  const session = await executor
    .insertInto('sessions')
    .values({
      id_hash: hashSessionToken(token),
      user_id: values.userId,
      csrf_token: randomBytes(32).toString('base64url'),
      created_at: now,
      last_seen_at: now,
      idle_expires_at: new Date(now.getTime() + settings.idleSeconds * 1000),
      absolute_expires_at: new Date(now.getTime() + settings.maxSeconds * 1000),
      ip: values.ip.slice(0, 100),
      user_agent: values.userAgent.slice(0, 300),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token, session };
}

/** Whether a session is still live: neither idle nor past its absolute lifetime (the caller deletes it otherwise). */
export function isLive(session: SessionRow, now = new Date()): boolean {
  return session.idle_expires_at > now && session.absolute_expires_at > now;
}

export async function deleteSession(
  executor: Kysely<Database> | Transaction<Database>,
  idHash: string,
): Promise<void> {
  await executor.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user, except `keepIdHash` when given (password change keeps the current). */
export async function deleteUserSessions(
  executor: Kysely<Database> | Transaction<Database>,
  userId: number,
  keepIdHash?: string,
): Promise<void> {
  let query = executor.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepIdHash) query = query.where('id_hash', '<>', keepIdHash);
  await query.execute();
}
