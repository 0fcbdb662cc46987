import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, DataExportRow } from '../db/schema.ts';

/** A running job whose heartbeat is older than this was left by a process that died. */
export const EXPORT_HEARTBEAT_TIMEOUT_MS = 60_000;

/**
 * Claims the oldest queued export (or one left `running` by a dead process) for this runner. The row
 * is locked `FOR UPDATE SKIP LOCKED`, so two processes claiming at once take different jobs (or one
 * takes it and the other none). The claim's `runner` token guards every later write: should the job
 * be reclaimed after a stall, the old runner's writes match no row and it stops.
 */
export async function claimExport(
  db: Kysely<Database>,
  heartbeatTimeoutMs = EXPORT_HEARTBEAT_TIMEOUT_MS,
): Promise<DataExportRow | undefined> {
  return inTransaction(db, async (trx) => {
    const stale = new Date(Date.now() - heartbeatTimeoutMs);
    const job = await trx
      .selectFrom('data_exports')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('state', '=', 'queued'),
          eb.and([eb('state', '=', 'running'), eb('heartbeat_at', '<', stale)]),
        ]),
      )
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!job) return undefined;
    // A reclaimed job starts over: the dead runner's chunks go.
    await trx.deleteFrom('data_export_chunks').where('export_id', '=', job.id).execute();
    return trx
      .updateTable('data_exports')
      .set({
        state: 'running',
        runner: randomUUID(),
        started_at: sql`now()`,
        heartbeat_at: sql`now()`,
        values_done: 0,
        subjects_done: 0,
        values_total: null,
      })
      .where('id', '=', job.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
