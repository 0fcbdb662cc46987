import { todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { systemActor } from '../audit/audit-events.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { sendTaskNotice } from './send-task-notice.ts';

/**
 * Sends every task notice whose period has started (UTC+9 day) and that is not sent yet, one
 * transaction each; a row is claimed `FOR UPDATE SKIP LOCKED`, so two processes never send one twice.
 * Returns the number of notices sent.
 */
export async function sendDueTaskNotices(db: Kysely<Database>, today = todayInKorea()): Promise<number> {
  let sent = 0;
  for (;;) {
    const done = await inTransaction(db, async (trx) => {
      const notice = await trx
        .selectFrom('task_notices')
        .selectAll()
        .where('enqueued_at', 'is', null)
        .where('period_start', '<=', today)
        .orderBy('period_start')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!notice) return true;
      await sendTaskNotice(trx, systemActor('task-notice scheduler'), notice);
      return false;
    });
    if (done) return sent;
    sent += 1;
  }
}

/** Each server process looks for due task notices shortly after start and every ten minutes. */
export function scheduleTaskNotices(
  db: Kysely<Database>,
  onError: (error: unknown) => void,
): { stop(): void } {
  const run = () => {
    sendDueTaskNotices(db).catch(onError);
  };
  const first = setTimeout(run, 5_000);
  const repeat = setInterval(run, 600_000);
  first.unref();
  repeat.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(repeat);
    },
  };
}
