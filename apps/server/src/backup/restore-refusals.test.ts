import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { databaseUrl, dropPostgresDatabase } from '../../test/database-templates.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { writeAuditCheckpoint } from '../audit/write-audit-checkpoint.ts';
import { listArchive, readEntryBytes, writeArchive } from './backup-archive.ts';
import { type BackupManifest, MANIFEST_NAME } from './backup-manifest.ts';
import { type RestoreConfig, RestoreMismatchError, restoreBackup } from './restore-backup.ts';
import { RestoreRefusal, type RestoreRefusalCode } from './restore-refusal.ts';
import { writeBackup } from './write-backup.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const CHECKPOINT_KEY = 'restore-refusal-checkpoint-key-0123456789ab';

/**
 * Issue 52 item 1: a restore refuses a damaged or mismatched archive, and a target that is not
 * empty, before it writes anything, saying why in Korean and English. One small archive (the demo
 * without subjects) is altered each way.
 */
describeWithDatabase(
  'restore refusals',
  (database) => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-restore-refusals-'));
    const archive = path.join(workDir, 'backup.tar');
    let sourceUrl: string | undefined;
    let manifest: BackupManifest;
    let targetNumber = 0;

    /**
     * A new, empty PGlite target. Most refusals come before the kind of the target matters (the
     * archive is checked first), so the PostgreSQL archive is refused into it as well.
     */
    function emptyPgliteTarget(): RestoreConfig {
      targetNumber += 1;
      const dataDir = path.join(workDir, `target-${targetNumber}`);
      return {
        databaseUrl: undefined,
        databaseOwnerUrl: undefined,
        dataDir,
        auditCheckpoint: {
          key: CHECKPOINT_KEY,
          file: path.join(dataDir, 'audit-checkpoints.jsonl'),
          intervalSeconds: 0,
        },
      };
    }

    /** The archive rebuilt with `change` applied to its manifest and parts (each a file of workDir). */
    async function alteredArchive(
      name: string,
      change: (manifest: BackupManifest, parts: Map<string, Buffer>) => void,
    ): Promise<string> {
      const entries = await listArchive(archive);
      const parts = new Map<string, Buffer>();
      for (const entry of entries) parts.set(entry.name, await readEntryBytes(archive, entry));
      const altered = structuredClone(manifest);
      change(altered, parts);
      parts.set(MANIFEST_NAME, Buffer.from(JSON.stringify(altered)));
      const directory = path.join(workDir, name);
      fs.mkdirSync(directory);
      for (const [part, bytes] of parts) fs.writeFileSync(path.join(directory, part), bytes);
      const file = path.join(workDir, `${name}.tar`);
      await writeArchive(
        file,
        [...parts.keys()].map((part) => ({ name: part, file: path.join(directory, part) })),
      );
      return file;
    }

    async function refusal(file: string, target: RestoreConfig): Promise<RestoreRefusal> {
      const before = filesUnder(target.dataDir);
      try {
        await restoreBackup(target, file);
      } catch (error) {
        if (error instanceof RestoreRefusal) {
          // Nothing was written: no database, no checkpoint file.
          expect(filesUnder(target.dataDir)).toEqual(before);
          return error;
        }
        throw error;
      }
      throw new Error('the restore did not refuse');
    }

    const expectRefusal = (error: RestoreRefusal, code: RestoreRefusalCode) => {
      expect(error.code).toBe(code);
      // Said in both languages.
      expect(error.text.en.length).toBeGreaterThan(20);
      expect(error.text.ko).toMatch(/[가-힣]/);
    };

    beforeAll(async () => {
      const source = database();
      const checkpointFile = path.join(workDir, 'source-checkpoints.jsonl');
      await writeAuditCheckpoint(source.db, { key: CHECKPOINT_KEY, file: checkpointFile });
      const postgres = inject('testDatabaseSources').postgres;
      if (source.kind === 'postgres' && postgres) {
        const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(source.db);
        sourceUrl = databaseUrl(postgres.url, rows[0]?.name ?? '');
      }
      manifest = await writeBackup(
        source,
        {
          databaseUrl: sourceUrl,
          databaseOwnerUrl: undefined,
          auditCheckpoint: { key: CHECKPOINT_KEY, file: checkpointFile, intervalSeconds: 0 },
        },
        archive,
      );
    }, 120_000);

    afterAll(() => {
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    /** A target of the archive's own kind: PGlite a new directory; PostgreSQL the source itself, which is not empty. */
    const nonEmptyTarget = (): RestoreConfig =>
      sourceUrl
        ? { ...emptyPgliteTarget(), databaseUrl: sourceUrl }
        : (() => {
            const target = emptyPgliteTarget();
            fs.mkdirSync(path.join(target.dataDir, 'pgdata'), { recursive: true });
            fs.writeFileSync(path.join(target.dataDir, 'pgdata', 'PG_VERSION'), '17\n');
            return target;
          })();

    it('refuses a part whose bytes changed (its SHA-256 differs from the manifest)', async () => {
      const damaged = path.join(workDir, 'damaged.tar');
      fs.copyFileSync(archive, damaged);
      const [, dump] = await listArchive(damaged);
      if (!dump) throw new Error('no dump in the archive');
      const handle = fs.openSync(damaged, 'r+');
      const byte = Buffer.alloc(1);
      const at = dump.offset + Math.floor(dump.size / 2);
      fs.readSync(handle, byte, 0, 1, at);
      fs.writeSync(handle, Buffer.from([(byte[0] ?? 0) ^ 0xff]), 0, 1, at);
      fs.closeSync(handle);
      const error = await refusal(damaged, emptyPgliteTarget());
      expectRefusal(error, 'part_damaged');
      expect(error.text.en).toContain(dump.name);
    });

    it('refuses an archive cut short, and a file that is no archive', async () => {
      const cut = path.join(workDir, 'cut.tar');
      const whole = fs.readFileSync(archive);
      fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
      expectRefusal(await refusal(cut, emptyPgliteTarget()), 'not_an_archive');
      const text = path.join(workDir, 'notes.txt');
      fs.writeFileSync(text, 'not a backup\n'.repeat(100));
      expectRefusal(await refusal(text, emptyPgliteTarget()), 'not_an_archive');
    });

    it('refuses a part the manifest names but the archive lacks', async () => {
      const file = await alteredArchive('lacking', (_manifest, parts) => {
        parts.delete('audit-checkpoints.jsonl');
      });
      const error = await refusal(file, emptyPgliteTarget());
      expectRefusal(error, 'part_missing');
      expect(error.text.en).toContain('audit-checkpoints.jsonl');
    });

    it('refuses a backup of a newer version: a migration this version does not know, or a newer format', async () => {
      const newer = await alteredArchive('newer', (altered) => {
        altered.app.version = '9.0.0';
        altered.database.migrations.push('2099-01-01T0000-from-the-future');
      });
      const error = await refusal(newer, emptyPgliteTarget());
      expectRefusal(error, 'newer_version');
      expect(error.text.en).toContain('2099-01-01T0000-from-the-future');
      expect(error.text.ko).toContain('9.0.0');
      const format = await alteredArchive('format', (altered) => {
        altered.formatVersion = 2;
      });
      expectRefusal(await refusal(format, emptyPgliteTarget()), 'newer_format');
    });

    it('refuses a backup of the other kind of database', async () => {
      const target = emptyPgliteTarget();
      const otherKind = sourceUrl ? target : { ...target, databaseUrl: 'postgres://127.0.0.1:1/none' };
      expectRefusal(await refusal(archive, otherKind), 'other_database_kind');
    });

    it('refuses a target that is not empty, and an existing checkpoint file', async () => {
      const error = await refusal(archive, nonEmptyTarget());
      expectRefusal(error, 'target_not_empty');
      if (sourceUrl) return; // on PostgreSQL the empty target with a checkpoint file is the PGlite case's
      const target = emptyPgliteTarget();
      fs.mkdirSync(target.dataDir, { recursive: true });
      fs.writeFileSync(target.auditCheckpoint.file, '{"an":"old checkpoint"}\n');
      expectRefusal(await refusal(archive, target), 'checkpoints_exist');
    });

    it('restores, then reports a database that does not match its manifest', async () => {
      // A manifest is checked against its dump only once restored: into a new database of its kind.
      const file = await alteredArchive('miscounted', (altered) => {
        altered.tables.users = (altered.tables.users ?? 0) + 1;
        altered.files.attachments.count += 1;
      });
      const postgres = inject('testDatabaseSources').postgres;
      const name = `${postgres?.prefix ?? 'none'}_m${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
      if (sourceUrl && postgres) {
        await sql`create database ${sql.id(name)}`.execute(database().db);
      }
      try {
        const target = emptyPgliteTarget();
        const error = await restoreBackup(
          sourceUrl && postgres ? { ...target, databaseUrl: databaseUrl(postgres.url, name) } : target,
          file,
        ).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(RestoreMismatchError);
        expect((error as Error).message).toContain('users: ');
        expect((error as Error).message).toContain('stored files');
      } finally {
        if (sourceUrl && postgres) await dropPostgresDatabase(postgres.url, name);
      }
    });

    it('prints a refusal in English and Korean and exits 1 (npm run cdms -- restore)', {
      timeout: 60_000,
    }, () => {
      const target = emptyPgliteTarget();
      const cut = path.join(workDir, 'cut-for-the-command.tar');
      fs.writeFileSync(cut, fs.readFileSync(archive).subarray(0, 2000));
      const result = spawnSync(process.execPath, ['apps/server/src/cli/main.ts', 'restore', cut], {
        cwd: repositoryRoot,
        env: {
          ...process.env,
          DATA_DIR: target.dataDir,
          DATABASE_URL: sourceUrl ?? '',
          AUDIT_CHECKPOINT_KEY: '',
        },
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('is not a whole backup archive');
      expect(result.stderr).toContain('온전한 백업 파일이 아닙니다');
      expect(result.stdout).toBe('');
    });
  },
  { seed: 'demo' },
);

/** Every file under `directory` with its size ([] when there is no directory). */
function filesUnder(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return `${path.relative(directory, file)} ${entry.isFile() ? fs.statSync(file).size : 'dir'}`;
    })
    .sort();
}
