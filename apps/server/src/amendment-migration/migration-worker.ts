import type { Kysely } from 'kysely';
import { type PollingLoop, type PollingLoopOptions, startPollingLoop } from '../background/polling-loop.ts';
import type { Database } from '../db/schema.ts';
import { runMigrationTurn } from './run-migration-turn.ts';

/**
 * The amendment migration worker of one server process (issue 49 item 4): turns of
 * `runMigrationTurn` back to back while there is work, else a look every `pollMs` (another process
 * may queue a job, and a site's approval date comes by itself) or when kicked after a job is queued
 * here. Several processes each run one; a job's lease keeps them off each other's batches.
 */
export function startMigrationWorker(
  db: Kysely<Database>,
  options: Pick<PollingLoopOptions, 'onWorkDone'> & {
    pollMs?: number;
    leaseSeconds?: number;
    onError?: (error: unknown) => void;
  } = {},
): PollingLoop {
  return startPollingLoop({
    pollMs: options.pollMs ?? 2000,
    onError: options.onError,
    onWorkDone: options.onWorkDone,
    turn: (stopping) =>
      runMigrationTurn(db, { stopping, leaseSeconds: options.leaseSeconds, onError: options.onError }),
  });
}
