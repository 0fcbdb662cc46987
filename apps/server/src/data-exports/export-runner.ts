import type { Kysely } from 'kysely';
import { type PollingLoopOptions, startPollingLoop } from '../background/polling-loop.ts';
import type { Database } from '../db/schema.ts';
import { claimExport } from './claim-export.ts';
import { runExport } from './run-export.ts';

export interface ExportRunner {
  /** A job was queued: look now rather than at the next poll. */
  kick(): void;
  /** Stops; a job in hand goes back to the queue (another process, or the next start, runs it). */
  stop(): Promise<void>;
}

export interface ExportRunnerOptions extends Pick<PollingLoopOptions, 'onWorkDone'> {
  /** How often an idle runner looks for queued jobs (another process may have queued them). */
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The export runner of one server process: one job at a time, claimed from the shared queue. Idle,
 * it looks every `pollMs` (or when kicked after a job is queued here). Several processes each run
 * one; the claim's row lock keeps them off each other's jobs. Stopping does not wait for a long
 * export: the job is put back in the queue, its chunks deleted.
 */
export function startExportRunner(db: Kysely<Database>, options: ExportRunnerOptions = {}): ExportRunner {
  return startPollingLoop({
    pollMs: options.pollMs ?? 2000,
    onError: options.onError,
    onWorkDone: options.onWorkDone,
    turn: async (stopping) => {
      const job = await claimExport(db);
      if (!job) return false;
      await runExport(db, job, undefined, stopping);
      return true;
    },
  });
}
