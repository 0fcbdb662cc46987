import { todayInKorea } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { computeIndicators, INDICATOR_STEPS } from './compute-indicators.ts';
import { findSignals, signalSteps } from './find-signals.ts';
import { studyDataMark } from './monitoring-run-state.ts';
import { storeIndicators } from './store-indicators.ts';
import { storeSignals } from './store-signals.ts';

export interface CentralMonitoringResult {
  indicators: number;
  /** Signals found by this run (active). */
  signals: number;
  seconds: number;
}

/**
 * A central monitoring run of a study done here and now, recorded as the study's finished run (the
 * page then shows it as current, not stale): for the seed and the bench, which call
 * `await runCentralMonitoring(db, studyId)` without the background worker. Waits for nothing else;
 * a run the worker holds at the same moment is simply overwritten by whichever finishes last.
 */
export async function runCentralMonitoring(
  db: Kysely<Database>,
  studyId: number,
  options: { today?: string } = {},
): Promise<CentralMonitoringResult> {
  const mark = await studyDataMark(db, studyId);
  const started = new Date();
  let steps = 0;
  const result = await computeCentralMonitoring(db, studyId, {
    ...options,
    onProgress: async (_done, total) => {
      steps = total;
    },
  });
  await sql`insert into monitoring_runs (study_id, state, queued_at, started_at, finished_at, progress_done,
      progress_total, data_mark)
    values (${studyId}, 'done', ${started}, ${started}, now(), ${steps}, ${steps}, ${mark})
    on conflict (study_id) do update set state = 'done', started_at = excluded.started_at,
      finished_at = excluded.finished_at, progress_done = excluded.progress_done,
      progress_total = excluded.progress_total, data_mark = excluded.data_mark, lease_until = null, error = null`.execute(
    db,
  );
  return result;
}

/**
 * One central monitoring computation of a study (issue 50), outside any request: the key risk indicators of
 * every site computed in SQL and stored as today's values, then the statistical signals found over the
 * study's values (read in keyset batches) and stored by fingerprint, keeping what people did with them.
 * The background job calls it (`run-monitoring-turn.ts`) and keeps the run's state itself.
 * `onProgress` hears (done, total) after each step.
 */
export async function computeCentralMonitoring(
  db: Kysely<Database>,
  studyId: number,
  options: { today?: string; onProgress?: (done: number, total: number) => Promise<void> } = {},
): Promise<CentralMonitoringResult> {
  const started = performance.now();
  const today = options.today ?? todayInKorea();
  const signalTotal = await signalSteps(db, studyId);
  const total = INDICATOR_STEPS + signalTotal + 1;
  let done = 0;
  const step = async () => {
    done += 1;
    await options.onProgress?.(Math.min(done, total), total);
  };
  const indicators = await computeIndicators(db, studyId, today, step);
  await storeIndicators(db, studyId, today, indicators);
  const signals = await findSignals(db, studyId, step);
  await storeSignals(db, studyId, signals);
  await step();
  return {
    indicators: indicators.length,
    signals: signals.length,
    seconds: (performance.now() - started) / 1000,
  };
}
