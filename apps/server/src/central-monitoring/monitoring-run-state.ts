import type { MonitoringRun } from '@cdms/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The study's newest audit record id: every save, query and SDV change records one, so a larger id
 * than a run's `data_mark` means the data changed after the run started. One look at the end of the
 * index (study_id, id).
 */
export async function studyDataMark(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<number> {
  const row = await db
    .selectFrom('audit_events')
    .select('id')
    .where('study_id', '=', studyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : 0;
}

/** The study's run as the page shows it: state, times, progress, and whether newer data exist. */
export async function readMonitoringRun(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<MonitoringRun> {
  const run = await db
    .selectFrom('monitoring_runs')
    .selectAll()
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  if (!run)
    return { state: 'none', startedAt: null, finishedAt: null, progress: { done: 0, total: 0 }, stale: true };
  const mark = await studyDataMark(db, studyId);
  return {
    state: run.state,
    startedAt: run.started_at?.toISOString() ?? null,
    finishedAt: run.finished_at?.toISOString() ?? null,
    progress: { done: run.progress_done, total: run.progress_total },
    stale: run.state === 'queued' || run.state === 'running' || mark > Number(run.data_mark),
  };
}

/**
 * Queues the study's run unless one is queued or running already (the row is the queue: one per
 * study). True when this call queued it.
 */
export async function queueMonitoringRun(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  requestedBy: number | null,
): Promise<boolean> {
  const queued = await sql<{
    study_id: number;
  }>`insert into monitoring_runs (study_id, state, queued_at, requested_by)
    values (${studyId}, 'queued', now(), ${requestedBy})
    on conflict (study_id) do update set state = 'queued', queued_at = now(), requested_by = excluded.requested_by,
      error = null
    where monitoring_runs.state in ('done', 'failed')
    returning study_id`.execute(db);
  return queued.rows.length > 0;
}
