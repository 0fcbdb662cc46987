import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { BackupManifest } from './backup-manifest.ts';
import { claimScheduledBackup } from './claim-scheduled-backup.ts';
import { pruneBackups, scheduledBackupName } from './prune-backups.ts';
import { type BackupConfig, writeBackup } from './write-backup.ts';

export type ScheduledBackupConfig = BackupConfig & Pick<Config, 'backup'>;

export interface BackupSchedule {
  /** Stops the timer and waits for a backup under way to finish. */
  stop(): Promise<void>;
}

interface Log {
  info(message: string): void;
  error(error: unknown, message: string): void;
}

/** How often each process asks whether a scheduled backup is due. */
const CHECK_EVERY_MS = 60_000;

/**
 * One turn of the schedule: when this process claims the backup due (claim-scheduled-backup.ts),
 * the archive `cdms-backup-<UTC time>.tar` in BACKUP_DIR, then the scheduled archives but the
 * newest BACKUP_KEEP deleted. Nothing when it is not due or another process took it.
 */
export async function runScheduledBackup(
  database: DatabaseHandle,
  config: ScheduledBackupConfig,
  now: Date = new Date(),
): Promise<{ file: string; manifest: BackupManifest; pruned: string[] } | undefined> {
  const { intervalHours, dir, keep } = config.backup;
  if (!(await claimScheduledBackup(database.db, intervalHours))) return undefined;
  await fs.promises.mkdir(dir, { recursive: true });
  const file = path.join(dir, scheduledBackupName(now));
  const manifest = await writeBackup(database, config, file);
  const pruned = await pruneBackups(dir, keep);
  return { file, manifest, pruned };
}

/**
 * The server's backups every BACKUP_INTERVAL_HOURS, asked about each minute by every process; the
 * first is due a minute after the first start. The timer is unref'd and a turn never overlaps the
 * one before. This is how an install on the embedded database is backed up while it serves: only
 * the server's process can open its data directory (backup/write-backup.ts). A failure is logged;
 * the next backup comes an interval later.
 */
export function scheduleBackups(
  database: DatabaseHandle,
  config: ScheduledBackupConfig,
  log: Log,
  checkEveryMs: number = CHECK_EVERY_MS,
): BackupSchedule {
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  const turn = async () => {
    try {
      const result = await runScheduledBackup(database, config);
      if (result) {
        const pruned = result.pruned.length > 0 ? `; deleted the older ${result.pruned.join(', ')}` : '';
        log.info(`scheduled backup written to ${result.file}${pruned}`);
      }
    } catch (error) {
      log.error(
        error,
        `the scheduled backup into ${config.backup.dir} failed; the next is due in ${config.backup.intervalHours} h`,
      );
    }
  };

  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = turn().finally(() => {
      busy = false;
    });
  }, checkEveryMs);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
