import type { Kysely } from 'kysely';
import { type PollingLoop, type PollingLoopOptions, startPollingLoop } from '../background/polling-loop.ts';
import type { Database } from '../db/schema.ts';
import { runMonitoringTurn } from './run-monitoring-turn.ts';

/**
 * The central monitoring worker of one server process (issue 50): turns of `runMonitoringTurn` back
 * to back while there are runs, else a look every `pollMs` (default 10 s) — data saved since, a run
 * queued by another process — or at once when kicked after a run was requested here.
 */
export function startMonitoringWorker(
  db: Kysely<Database>,
  options: Pick<PollingLoopOptions, 'onWorkDone'> & {
    refreshMinutes: number;
    pollMs?: number;
    onError?: (error: unknown) => void;
  },
): PollingLoop {
  return startPollingLoop({
    pollMs: options.pollMs ?? 10_000,
    onError: options.onError,
    onWorkDone: options.onWorkDone,
    turn: () => runMonitoringTurn(db, { refreshMinutes: options.refreshMinutes, onError: options.onError }),
  });
}
