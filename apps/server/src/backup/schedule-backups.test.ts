import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { databaseUrl } from '../../test/database-templates.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { type DatabaseHandle, openPostgres } from '../db/database.ts';
import { listArchive } from './backup-archive.ts';
import { pruneBackups, SCHEDULED_BACKUP_PATTERN, scheduledBackupName } from './prune-backups.ts';
import { runScheduledBackup, type ScheduledBackupConfig, scheduleBackups } from './schedule-backups.ts';

/**
 * Issue 52 item 1: scheduled backups (BACKUP_INTERVAL_HOURS, BACKUP_KEEP). Each due backup is taken
 * by exactly one of the processes sharing the database — here two handles on PostgreSQL (two
 * processes' pools), one on PGlite, each asked three times at once —, and the newest archives are
 * kept, nothing else in the folder touched.
 */
describeWithDatabase('scheduled backups', (database) => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-scheduled-backups-'));
  let config: ScheduledBackupConfig;
  let secondProcess: DatabaseHandle | undefined;

  const scheduledArchives = () =>
    fs
      .readdirSync(config.backup.dir)
      .filter((name) => SCHEDULED_BACKUP_PATTERN.test(name))
      .sort();
  /** As if the last backup had been claimed `hours` ago. */
  const lastClaimedHoursAgo = (hours: number) =>
    sql`update backup_schedule set last_claimed_at = now() - make_interval(hours => ${hours})`.execute(
      database().db,
    );

  beforeAll(async () => {
    const postgres = inject('testDatabaseSources').postgres;
    let url: string | undefined;
    if (database().kind === 'postgres' && postgres) {
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database().db);
      url = databaseUrl(postgres.url, rows[0]?.name ?? '');
      secondProcess = openPostgres({ connectionString: url, maxConnections: 3 });
    }
    config = {
      databaseUrl: url,
      databaseOwnerUrl: undefined,
      auditCheckpoint: { key: undefined, file: path.join(workDir, 'checkpoints.jsonl'), intervalSeconds: 0 },
      backup: { intervalHours: 24, dir: path.join(workDir, 'backups'), keep: 3 },
    };
  });

  afterAll(async () => {
    await secondProcess?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('takes a due backup once, whichever of the processes asks first, and not again before the interval', async () => {
    const processes = [database(), secondProcess ?? database()];
    const results = await Promise.all(
      [0, 1, 2].flatMap(() => processes.map((handle) => runScheduledBackup(handle, config))),
    );
    const taken = results.filter((result) => result !== undefined);
    expect(taken).toHaveLength(1);
    expect(scheduledArchives()).toHaveLength(1);
    const [archive] = taken;
    expect((await listArchive(archive?.file ?? ''))[0]?.name).toBe('manifest.json');

    expect(await runScheduledBackup(database(), config)).toBeUndefined();
    await lastClaimedHoursAgo(23);
    expect(await runScheduledBackup(database(), config)).toBeUndefined();
    await lastClaimedHoursAgo(24);
    expect(await runScheduledBackup(database(), config, new Date('2099-01-01T00:00:00Z'))).toBeDefined();
    expect(scheduledArchives()).toHaveLength(2);
  });

  it('keeps the newest BACKUP_KEEP scheduled archives and leaves other files alone', async () => {
    const dir = path.join(workDir, 'retention');
    fs.mkdirSync(dir);
    const names = [1, 2, 3, 4, 5].map((day) =>
      scheduledBackupName(new Date(Date.UTC(2026, 11, day, 2, 0, 0))),
    );
    for (const name of names) fs.writeFileSync(path.join(dir, name), 'old');
    fs.writeFileSync(path.join(dir, 'before-the-upgrade.tar'), 'by hand');
    expect(await pruneBackups(dir, 3)).toEqual(names.slice(0, 2));
    expect(fs.readdirSync(dir).sort()).toEqual(['before-the-upgrade.tar', ...names.slice(2)].sort());

    await lastClaimedHoursAgo(48);
    const result = await runScheduledBackup(database(), { ...config, backup: { ...config.backup, dir } });
    // The new archive (named for now) is among the three kept; the oldest of the rest went.
    expect(result?.pruned).toEqual([names[2]]);
    expect(fs.readdirSync(dir).filter((name) => SCHEDULED_BACKUP_PATTERN.test(name))).toHaveLength(3);
    expect(fs.existsSync(path.join(dir, 'before-the-upgrade.tar'))).toBe(true);
  });

  it('runs on a timer: one backup in many turns while it is not due again', async () => {
    const dir = path.join(workDir, 'timer');
    await lastClaimedHoursAgo(48);
    const messages: string[] = [];
    const schedule = scheduleBackups(
      database(),
      { ...config, backup: { ...config.backup, dir } },
      { info: (message) => messages.push(message), error: (_error, message) => messages.push(message) },
      20,
    );
    const deadline = Date.now() + 20_000;
    while (messages.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await schedule.stop();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('scheduled backup written to');
    expect(fs.readdirSync(dir).filter((name) => SCHEDULED_BACKUP_PATTERN.test(name))).toHaveLength(1);
  });
});
