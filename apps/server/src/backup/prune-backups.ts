import fs from 'node:fs';
import path from 'node:path';

/** The scheduled archives' names: the time they were started (UTC) sorts them oldest first. */
export const SCHEDULED_BACKUP_PATTERN = /^cdms-backup-\d{8}T\d{6}Z\.tar$/;

/** The name of a scheduled archive started at `at`. */
export function scheduledBackupName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return `cdms-backup-${stamp}.tar`;
}

/**
 * Deletes the scheduled archives in `directory` but the newest `keep` (BACKUP_KEEP); returns the
 * names deleted. Only files named as the schedule names them are counted or touched: an archive
 * written there by hand (`npm run cdms -- backup --out …`) or anything else is left alone.
 */
export async function pruneBackups(directory: string, keep: number): Promise<string[]> {
  const names = (await fs.promises.readdir(directory))
    .filter((name) => SCHEDULED_BACKUP_PATTERN.test(name))
    .sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await fs.promises.rm(path.join(directory, name), { force: true });
  return old;
}
