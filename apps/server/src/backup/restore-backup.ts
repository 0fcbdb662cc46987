import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { type DatabaseHandle, openPGlite, openPostgres } from '../db/database.ts';
import { knownMigrationNames } from '../db/migrate.ts';
import { productVersion } from '../version.ts';
import {
  type ArchiveEntry,
  ArchiveFormatError,
  listArchive,
  readEntry,
  readEntryBytes,
} from './backup-archive.ts';
import {
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  describeDatabase,
  MANIFEST_NAME,
  manifestSchema,
} from './backup-manifest.ts';
import { pgRestore } from './postgres-tools.ts';
import { RestoreRefusal } from './restore-refusal.ts';

export type RestoreConfig = Pick<Config, 'databaseUrl' | 'databaseOwnerUrl' | 'dataDir' | 'auditCheckpoint'>;

/** A restore that ran but whose database does not match the manifest (should not happen). */
export class RestoreMismatchError extends Error {}

/**
 * `npm run cdms -- restore ARCHIVE`: a backup (write-backup.ts) into an empty install, the one
 * configured (DATABASE_URL, else DATA_DIR), with no server running on it.
 *
 * Everything is checked before anything is written, and any doubt is a `RestoreRefusal`: the file
 * is a whole tar whose first part is a manifest this version reads; every part it names is there
 * with its size and SHA-256; the database's migrations are all known to this version (an older
 * backup is fine: the server migrates it when it starts); the database is of the configured kind;
 * the target database is empty and there is no checkpoint file yet.
 *
 * Then the database is restored (pg_restore in one transaction, or PGlite's data directory loaded)
 * and the checkpoint file written; last, the restored database is described as a backup describes
 * it and compared with the manifest: rows per table, chain and checkpoint heads, stored files,
 * migrations.
 */
export async function restoreBackup(config: RestoreConfig, archive: string): Promise<BackupManifest> {
  const { manifest, entries } = await checkArchive(archive);
  const known = new Set(await knownMigrationNames());
  const unknown = manifest.database.migrations.find((name) => !known.has(name));
  if (unknown !== undefined) {
    throw new RestoreRefusal('newer_version', { version: manifest.app.version, migration: unknown });
  }
  const targetKind = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database.kind !== targetKind) {
    throw new RestoreRefusal('other_database_kind', {
      archive: kindName(manifest.database.kind),
      target: kindName(targetKind),
    });
  }
  await refuseUnlessTargetEmpty(config);
  const checkpointFile = config.auditCheckpoint.file;
  if ((await fileSize(checkpointFile)) > 0)
    throw new RestoreRefusal('checkpoints_exist', { file: checkpointFile });

  const entryOf = (role: BackupManifest['parts'][number]['role']) => {
    const part = manifest.parts.find((candidate) => candidate.role === role);
    return part ? entries.get(part.name) : undefined;
  };
  const database = await restoreDatabase(config, archive, entryOf);
  try {
    const checkpoints = entryOf('audit_checkpoints');
    if (checkpoints) {
      await fs.promises.mkdir(path.dirname(checkpointFile), { recursive: true });
      await fs.promises.writeFile(checkpointFile, await readEntryBytes(archive, checkpoints));
    }
    await compareWithManifest(database, manifest);
  } finally {
    await database.close();
  }
  return manifest;
}

const kindName = (kind: 'postgres' | 'pglite') => (kind === 'postgres' ? 'PostgreSQL' : 'PGlite');

/** The manifest, once every part it names is found whole in the archive. */
async function checkArchive(
  archive: string,
): Promise<{ manifest: BackupManifest; entries: Map<string, ArchiveEntry> }> {
  let list: ArchiveEntry[];
  try {
    list = await listArchive(archive);
  } catch (error) {
    if (error instanceof ArchiveFormatError) {
      throw new RestoreRefusal('not_an_archive', { file: archive, detail: error.message });
    }
    throw error;
  }
  const [first] = list;
  if (!first || first.name !== MANIFEST_NAME) {
    throw new RestoreRefusal('not_a_backup', {
      file: archive,
      detail: `${MANIFEST_NAME} is not its first part`,
    });
  }
  let manifest: BackupManifest;
  try {
    const json: unknown = JSON.parse((await readEntryBytes(archive, first)).toString('utf8'));
    const formatVersion = (json as { formatVersion?: unknown }).formatVersion;
    if (typeof formatVersion === 'number' && formatVersion > BACKUP_FORMAT_VERSION) {
      const version = (json as { app?: { version?: string } }).app?.version ?? '?';
      throw new RestoreRefusal('newer_format', { format: String(formatVersion), version });
    }
    manifest = manifestSchema.parse(json);
  } catch (error) {
    if (error instanceof RestoreRefusal) throw error;
    throw new RestoreRefusal('not_a_backup', {
      file: archive,
      detail: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
    });
  }
  const entries = new Map(list.map((entry) => [entry.name, entry]));
  for (const part of manifest.parts) {
    const entry = entries.get(part.name);
    if (!entry || entry.size !== part.size) throw new RestoreRefusal('part_missing', { part: part.name });
    const actual = await sha256Of(readEntry(archive, entry));
    if (actual !== part.sha256) {
      throw new RestoreRefusal('part_damaged', { part: part.name, expected: part.sha256, actual });
    }
  }
  return { manifest, entries };
}

async function sha256Of(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** The URL the restore writes with: the owner's when there is one. */
function restoreUrl(config: RestoreConfig): string | undefined {
  return config.databaseOwnerUrl ?? config.databaseUrl;
}

async function refuseUnlessTargetEmpty(config: RestoreConfig): Promise<void> {
  const url = restoreUrl(config);
  if (url) {
    const database = openPostgres({ connectionString: url, maxConnections: 1 });
    try {
      const { rows } = await sql<{ tables: number }>`
        select count(*)::int as tables from information_schema.tables
        where table_schema = current_schema()`.execute(database.db);
      const tables = rows[0]?.tables ?? 0;
      if (tables > 0) {
        throw new RestoreRefusal('target_not_empty', {
          target: `${new URL(url).pathname.slice(1)}: ${tables} tables`,
        });
      }
    } finally {
      await database.close();
    }
    return;
  }
  const pgdata = path.join(config.dataDir, 'pgdata');
  const files = await fs.promises.readdir(pgdata).catch(() => []);
  if (files.length > 0) throw new RestoreRefusal('target_not_empty', { target: pgdata });
}

async function restoreDatabase(
  config: RestoreConfig,
  archive: string,
  entryOf: (role: BackupManifest['parts'][number]['role']) => ArchiveEntry | undefined,
): Promise<DatabaseHandle> {
  const url = restoreUrl(config);
  if (url) {
    const dump = entryOf('pg_dump');
    if (!dump) throw new RestoreRefusal('part_missing', { part: 'pg_dump' });
    await pgRestore(url, readEntry(archive, dump));
    return openPostgres({ connectionString: url, maxConnections: 1 });
  }
  const dataDirectory = entryOf('pglite_data_dir');
  if (!dataDirectory) throw new RestoreRefusal('part_missing', { part: 'pglite_data_dir' });
  const tarball = new Blob([await readEntryBytes(archive, dataDirectory)], { type: 'application/x-gzip' });
  return openPGlite(config.dataDir, { loadDataDir: tarball });
}

/**
 * The restored database described as a backup describes it (backup-manifest.ts), against the
 * manifest: its migrations, rows per table, audit chain head and checkpoint count, and stored files.
 * Only the server's version may differ (a PostgreSQL backup restored into a newer server).
 */
async function compareWithManifest(database: DatabaseHandle, manifest: BackupManifest): Promise<void> {
  const restored = await describeDatabase(database.db, manifest.database.kind);
  const differences: string[] = [];
  for (const [table, count] of Object.entries(manifest.tables)) {
    if (restored.tables[table] !== count) {
      differences.push(`${table}: ${restored.tables[table] ?? 'missing'} rows, the backup had ${count}`);
    }
  }
  const same = (what: string, now: unknown, then: unknown) => {
    if (JSON.stringify(now) !== JSON.stringify(then)) {
      differences.push(`${what}: ${JSON.stringify(now)}, the backup had ${JSON.stringify(then)}`);
    }
  };
  same('migrations', restored.database.migrations, manifest.database.migrations);
  same('audit chain head', restored.audit.head, manifest.audit.head);
  same('audit checkpoints', restored.audit.checkpoints, manifest.audit.checkpoints);
  same('stored files', restored.files, manifest.files);
  if (differences.length > 0) {
    throw new RestoreMismatchError(
      `The restored database differs from the backup's manifest (CDMS ${productVersion}):\n  ${differences.join('\n  ')}`,
    );
  }
}
