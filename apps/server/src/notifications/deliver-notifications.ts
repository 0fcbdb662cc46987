import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, NotificationRow } from '../db/schema.ts';
import type { EmailSender, SendOutcome, SmsSender } from './senders.ts';

/** Tries per message before it is marked failed. */
export const MAX_ATTEMPTS = 5;
/** A message claimed this long ago and still "sending" was left by a process that died. */
export const SENDING_TIMEOUT_MS = 5 * 60_000;

/** Wait before the next try after `attempts` failed ones: 30 s, 2 min, 8 min, 32 min. */
export function retryDelayMs(attempts: number): number {
  return 30_000 * 4 ** Math.max(0, attempts - 1);
}

/**
 * Claims up to `limit` due messages for this worker: queued ones whose time has come, and ones left
 * "sending" by a process that died. `FOR UPDATE SKIP LOCKED` keeps two workers (two server
 * processes) off each other's rows; the claim token then guards the result's write.
 */
export async function claimNotifications(db: Kysely<Database>, limit: number): Promise<NotificationRow[]> {
  const token = randomUUID();
  const stale = new Date(Date.now() - SENDING_TIMEOUT_MS);
  const claimed = await sql<NotificationRow>`
    update notifications set status = 'sending', claimed_by = ${token}, claimed_at = now(),
      attempts = attempts + 1
    where id in (
      select id from notifications
      where (status = 'queued' and next_attempt_at <= now())
        or (status = 'sending' and claimed_at < ${stale})
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked
    )
    returning *`.execute(db);
  return claimed.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Sends one claimed message and records what happened: sent, not sent (why), or a retry/failure. */
export async function deliverNotification(
  db: Kysely<Database>,
  row: NotificationRow,
  senders: { email: EmailSender; sms: SmsSender },
): Promise<NotificationRow['status']> {
  let outcome: SendOutcome | { error: string };
  try {
    outcome =
      row.channel === 'email'
        ? await senders.email.send({ to: row.recipient_address, subject: row.subject, text: row.body })
        : await senders.sms.send({ to: row.recipient_address, text: `${row.subject}\n${row.body}` });
  } catch (error) {
    outcome = { error: error instanceof Error ? error.message : String(error) };
  }
  const guard = db
    .updateTable('notifications')
    .where('id', '=', row.id)
    .where('claimed_by', '=', row.claimed_by);
  if ('error' in outcome) {
    const giveUp = row.attempts >= MAX_ATTEMPTS;
    const status = giveUp ? 'failed' : 'queued';
    await guard
      .set({
        status,
        last_error: outcome.error.slice(0, 1000),
        last_error_code: null,
        next_attempt_at: new Date(Date.now() + retryDelayMs(row.attempts)),
        claimed_by: null,
      })
      .execute();
    return status;
  }
  const status = outcome.sent ? 'sent' : 'not_sent';
  await guard
    .set({
      status,
      sent_at: outcome.sent ? sql`now()` : null,
      last_error: null,
      last_error_code: outcome.sent ? null : outcome.reason,
      claimed_by: null,
    })
    .execute();
  return status;
}

/** Puts claimed messages back in the queue untried (a worker stopping), as if never claimed. */
export async function releaseNotifications(
  db: Kysely<Database>,
  rows: readonly NotificationRow[],
): Promise<void> {
  for (const row of rows)
    await db
      .updateTable('notifications')
      .set({ status: 'queued', claimed_by: null, attempts: sql`attempts - 1` })
      .where('id', '=', row.id)
      .where('claimed_by', '=', row.claimed_by)
      .execute();
}
