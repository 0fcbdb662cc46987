import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Metrics } from './create-metrics.ts';

/** A scrape waits this long for the database's numbers, then answers with -1 in their place. */
export const DATABASE_GAUGES_TIMEOUT_MS = 2000;

interface DatabaseGauges {
  exports_queued: number | string;
  exports_running: number | string;
  outbox_backlog: number | string;
  outbox_oldest_seconds: number | string | null;
  audit_unanchored_seconds: number | string | null;
}

/**
 * Sets the gauges read from the shared database — the export queue, the notification outbox, the
 * audit checkpoint's lag — at a scrape, in one statement of cheap counts (each over a small queue
 * or an index). They are the same for every process: sum() them by instance, not across.
 *
 * Never throws: a database that fails or does not answer within `timeoutMs` sets each gauge to -1
 * and the failure goes to `onError`, so the rest of /metrics (requests, pool) still answers.
 */
export async function readDatabaseGauges(
  db: Kysely<Database>,
  metrics: Metrics,
  onError: (error: unknown) => void,
  timeoutMs = DATABASE_GAUGES_TIMEOUT_MS,
): Promise<void> {
  let row: DatabaseGauges | undefined;
  try {
    row = await withTimeout(queryGauges(db), timeoutMs);
  } catch (error) {
    onError(error);
  }
  const number = (value: number | string | null | undefined): number =>
    row === undefined ? -1 : Math.max(0, Number(value ?? 0));
  metrics.exportJobs.set({ state: 'queued' }, number(row?.exports_queued));
  metrics.exportJobs.set({ state: 'running' }, number(row?.exports_running));
  metrics.outboxBacklog.set(number(row?.outbox_backlog));
  metrics.outboxOldestAge.set(number(row?.outbox_oldest_seconds));
  metrics.auditCheckpointAge.set(number(row?.audit_unanchored_seconds));
}

async function queryGauges(db: Kysely<Database>): Promise<DatabaseGauges> {
  // The oldest record after the checkpointed one, found by id (the primary key), not by scanning
  // every uncovered record's time: without checkpoints that would be the whole audit table.
  const result = await sql<DatabaseGauges>`
    select
      (select count(*) from data_exports where state = 'queued') as exports_queued,
      (select count(*) from data_exports where state = 'running') as exports_running,
      (select count(*) from notifications where status in ('queued', 'sending')) as outbox_backlog,
      (select extract(epoch from now() - min(created_at)) from notifications
        where status in ('queued', 'sending')) as outbox_oldest_seconds,
      (select extract(epoch from now() - occurred_at) from audit_events
        where id > coalesce((select last_audit_event_id from audit_checkpoint_head), 0)
        order by id limit 1) as audit_unanchored_seconds
  `.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('The database returned no row for the metrics query.');
  return row;
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The database did not answer within ${timeoutMs} ms.`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    // A query that lost the race may still fail later: that is not an unhandled rejection.
    work.catch(() => {});
  }
}
