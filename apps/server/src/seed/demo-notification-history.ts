import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The living demo's delivery history (issue 18 item 6): the notifications the demo's events raised
 * (queries, casebooks to sign, holds, task notices) are written to the outbox as every event writes
 * them, queued. A demo server has no mail server, so its worker would mark them all "not sent"; the
 * alarm log of a newcomer's first look should show what a running trial's does. So, as if the demo
 * had been running with a mail server: the oldest e-mail was refused for good by the recipient's
 * server (failed after the last retry), the newest is waiting for a retry after a temporary refusal,
 * and the others were delivered a few seconds after they were raised. Rows already "not sent" (an SMS
 * to someone without a phone number) stay as they are. Runs last, after every event of the seed.
 */
export async function seedDemoNotificationHistory(db: Kysely<Database>): Promise<void> {
  const queued = await db
    .selectFrom('notifications')
    .select(['id', 'recipient_address'])
    .where('status', '=', 'queued')
    .where('channel', '=', 'email')
    .orderBy('id')
    .execute();
  const refused = queued[0];
  const retrying = queued.at(-1);
  if (!refused || !retrying || refused.id === retrying.id) return;
  await db
    .updateTable('notifications')
    .set({
      status: 'failed',
      attempts: 5,
      last_error: `550 5.2.2 <${refused.recipient_address}>: mailbox full`,
    })
    .where('id', '=', refused.id)
    .execute();
  await db
    .updateTable('notifications')
    .set({
      attempts: 1,
      last_error: '421 4.7.0 Try again later, closing connection.',
      next_attempt_at: sql<Date>`now() + interval '6 hours'`,
    })
    .where('id', '=', retrying.id)
    .execute();
  await db
    .updateTable('notifications')
    .set({ status: 'sent', attempts: 1, sent_at: sql<Date>`created_at + interval '4 seconds'` })
    .where('status', '=', 'queued')
    .where('id', 'not in', [refused.id, retrying.id])
    .execute();
}
