import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { queueMonitoringRun, studyDataMark } from './monitoring-run-state.ts';
import { computeCentralMonitoring } from './run-central-monitoring.ts';

/** How long a claimed run is its process's; each step renews it, so only a dead process loses it. */
export const MONITORING_LEASE_SECONDS = 120;

export interface MonitoringTurnOptions {
  /** A study whose data changed is run again at most this often (config MONITORING_REFRESH_MINUTES). */
  refreshMinutes: number;
  leaseSeconds?: number;
  today?: string;
  onError?: (error: unknown) => void;
}

/**
 * One turn of a process's monitoring worker (`monitoring-worker.ts`): the studies whose data changed
 * since their last run (a newer audit record than the run's mark: one index look per study, nothing
 * in the saves) and whose last run finished `refreshMinutes` ago are queued; then one queued run — or
 * a running one whose lease ran out — is claimed with a lease (`for update skip locked`: of several
 * processes exactly one gets it) and run whole, its progress stored after each step. True when it ran one.
 */
export async function runMonitoringTurn(
  db: Kysely<Database>,
  options: MonitoringTurnOptions,
): Promise<boolean> {
  await queueChangedStudies(db, options.refreshMinutes);
  const leaseSeconds = options.leaseSeconds ?? MONITORING_LEASE_SECONDS;
  const claimed = await claimMonitoringRun(db, leaseSeconds);
  if (!claimed) return false;
  const studyId = claimed.study_id;
  try {
    await computeCentralMonitoring(db, studyId, {
      ...(options.today ? { today: options.today } : {}),
      onProgress: async (done, total) => {
        await db
          .updateTable('monitoring_runs')
          .set({
            progress_done: done,
            progress_total: total,
            lease_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})`,
          })
          .where('study_id', '=', studyId)
          .execute();
      },
    });
    await db
      .updateTable('monitoring_runs')
      .set({ state: 'done', finished_at: sql<Date>`now()`, lease_until: null })
      .where('study_id', '=', studyId)
      .where('state', '=', 'running')
      .execute();
  } catch (error) {
    options.onError?.(error);
    await db
      .updateTable('monitoring_runs')
      .set({
        state: 'failed',
        finished_at: sql<Date>`now()`,
        lease_until: null,
        error: error instanceof Error ? error.message.slice(0, 500) : 'failed',
      })
      .where('study_id', '=', studyId)
      .execute();
  }
  return true;
}

/** The oldest queued run, or a running one whose process died (lease past), leased to this process. */
export async function claimMonitoringRun(
  db: Kysely<Database>,
  leaseSeconds: number = MONITORING_LEASE_SECONDS,
): Promise<{ study_id: number } | undefined> {
  const claimed = await sql<{ study_id: number }>`update monitoring_runs r
    set state = 'running', started_at = now(), finished_at = null, progress_done = 0, progress_total = 0,
      lease_until = now() + make_interval(secs => ${leaseSeconds}),
      data_mark = coalesce((select max(a.id) from audit_events a where a.study_id = r.study_id), 0)
    where r.study_id = (
      select study_id from monitoring_runs
      where state = 'queued' or (state = 'running' and lease_until < now())
      order by queued_at limit 1 for update skip locked)
    returning r.study_id`.execute(db);
  return claimed.rows[0];
}

/**
 * Queues every study whose data changed after its last run started, once that run is at least
 * `refreshMinutes` old (and every study with data never run). A cheap check: one row per study and
 * the end of one index per study.
 */
export async function queueChangedStudies(db: Kysely<Database>, refreshMinutes: number): Promise<number> {
  const candidates = await db
    .selectFrom('studies')
    .leftJoin('monitoring_runs as r', 'r.study_id', 'studies.id')
    .select(['studies.id', 'r.data_mark', 'r.state', 'r.finished_at'])
    .where((eb) =>
      eb.or([
        eb('r.study_id', 'is', null),
        eb.and([
          eb('r.state', 'in', ['done', 'failed']),
          eb('r.finished_at', '<', sql<Date>`now() - make_interval(mins => ${refreshMinutes})`),
        ]),
      ]),
    )
    .execute();
  let queued = 0;
  for (const study of candidates) {
    const hasSubjects = await db
      .selectFrom('subject_facts')
      .select('subject_id')
      .where('study_id', '=', study.id)
      .limit(1)
      .executeTakeFirst();
    if (!hasSubjects) continue;
    const mark = await studyDataMark(db, study.id);
    if (study.data_mark !== null && mark <= Number(study.data_mark)) continue;
    if (await queueMonitoringRun(db, study.id, null)) queued += 1;
  }
  return queued;
}
