import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type CheckpointTarget, writeAuditCheckpoint } from './write-audit-checkpoint.ts';

export interface CheckpointSchedule {
  /** Stops the timer and anchors the head one last time, so the newest records are covered too. */
  stop(): Promise<void>;
}

interface Log {
  info(message: string): void;
  error(error: unknown, message: string): void;
}

/**
 * Writes a checkpoint every `intervalMs` while the server runs, skipping ticks where the head has
 * not moved since this process last anchored it. The timer is unref'd (it never keeps the process
 * alive), and a tick never overlaps the previous one. A failure is logged, not thrown: the next tick
 * tries again, and a missing checkpoint weakens the anchor but loses no audit data.
 */
export function scheduleAuditCheckpoints(
  db: Kysely<Database>,
  target: CheckpointTarget,
  intervalMs: number,
  log: Log,
): CheckpointSchedule {
  let lastAnchoredId: number | undefined;
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  const anchor = async () => {
    try {
      const checkpoint = await writeAuditCheckpoint(db, target, { unlessAt: lastAnchoredId });
      if (checkpoint) {
        lastAnchoredId = checkpoint.auditEventId;
        log.info(`audit checkpoint written: record ${checkpoint.auditEventId}`);
      }
    } catch (error) {
      log.error(error, `audit checkpoint could not be written to ${target.file}`);
    }
  };

  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = anchor().finally(() => {
      busy = false;
    });
  }, intervalMs);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await running;
      await anchor();
    },
  };
}
