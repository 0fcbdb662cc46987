import { todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { computeIndicators, INDICATOR_STEPS } from './compute-indicators.ts';
import { findSignals, signalSteps } from './find-signals.ts';
import { storeIndicators } from './store-indicators.ts';
import { storeSignals } from './store-signals.ts';

export interface CentralMonitoringResult {
  indicators: number;
  /** Signals found by this run (active). */
  signals: number;
  seconds: number;
}

/**
 * One central monitoring run of a study (issue 50), outside any request: the key risk indicators of
 * every site computed in SQL and stored as today's values, then the statistical signals found over the
 * study's values (read in keyset batches) and stored by fingerprint, keeping what people did with them.
 * The background job calls it (`run-monitoring-turn.ts`); the seed and the bench may call it directly:
 * `await runCentralMonitoring(db, studyId)`. `onProgress` hears (done, total) after each step.
 */
export async function runCentralMonitoring(
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
