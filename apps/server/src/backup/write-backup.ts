import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { type DatabaseHandle, openPostgres } from '../db/database.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { productReleaseDate, productVersion } from '../version.ts';
import { writeArchive } from './backup-archive.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  type DatabaseDescription,
  describeDatabase,
  MANIFEST_NAME,
  type ManifestPart,
  type partRoles,
} from './backup-manifest.ts';
import { pgDump } from './postgres-tools.ts';

export type BackupConfig = Pick<Config, 'databaseUrl' | 'databaseOwnerUrl' | 'auditCheckpoint'>;

type PartRole = (typeof partRoles)[number];

/** The name of each part inside the archive. */
export const PART_NAMES: Record<PartRole, string> = {
  pg_dump: 'database.pgdump',
  pglite_data_dir: 'pgdata.tar.gz',
  audit_checkpoints: 'audit-checkpoints.jsonl',
};

/**
 * `npm run cdms -- backup --out FILE`, and the scheduled backups (schedule-backups.ts): one archive
 * (backup-archive.ts) holding `manifest.json`, the database and the signed audit checkpoints.
 *
 * The database holds every stored file too (attachments, form photos, uploaded images, finished
 * exports are rows: docs/decisions/uploads-stream-through-a-temporary-file.md), so its dump is all
 * of the install's data; the checkpoint file is the one thing kept outside it.
 *
 * - PostgreSQL: one REPEATABLE READ transaction exports its snapshot, pg_dump dumps that snapshot
 *   and the manifest's counts are read in the same transaction: the manifest describes the dump
 *   exactly, while the server goes on writing.
 * - PGlite (the server's own process: nobody else can open its data directory): the one connection
 *   is held, so no transaction is half done; the counts are read on it, a CHECKPOINT writes every
 *   change into the files, and PGlite dumps its data directory. Requests wait for those seconds.
 *
 * The checkpoint file keeps its first lines up to the number the database had counted at the dump:
 * a checkpoint written after the snapshot would anchor a record the dump does not hold.
 *
 * Written to `<out>.partial` and renamed when whole, so a file named `out` is always a whole backup.
 */
export async function writeBackup(
  database: DatabaseHandle,
  config: BackupConfig,
  out: string,
): Promise<BackupManifest> {
  // The parts are made beside the archive (the same disk: no second copy of a large dump in /tmp).
  const directory = path.dirname(path.resolve(out));
  await fs.promises.mkdir(directory, { recursive: true });
  const workDirectory = await fs.promises.mkdtemp(path.join(directory, '.cdms-backup-'));
  const partial = `${out}.partial`;
  try {
    const { description, databasePart } = await dumpDatabase(database, config, workDirectory);
    const parts: { role: PartRole; file: string }[] = [databasePart];
    const checkpoints = await copyCheckpoints(
      config.auditCheckpoint.file,
      description.audit.checkpoints.written,
      path.join(workDirectory, PART_NAMES.audit_checkpoints),
    );
    if (checkpoints) parts.push({ role: 'audit_checkpoints', file: checkpoints });

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      app: { version: productVersion, releaseDate: productReleaseDate },
      ...description,
      parts: await Promise.all(parts.map((part) => describePart(part.role, part.file))),
    };
    const manifestFile = path.join(workDirectory, MANIFEST_NAME);
    await fs.promises.writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    await writeArchive(partial, [
      { name: MANIFEST_NAME, file: manifestFile },
      ...parts.map((part) => ({ name: PART_NAMES[part.role], file: part.file })),
    ]);
    await fs.promises.rename(partial, out);
    return manifest;
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    await fs.promises.rm(workDirectory, { recursive: true, force: true });
  }
}

async function dumpDatabase(
  database: DatabaseHandle,
  config: BackupConfig,
  workDirectory: string,
): Promise<{ description: DatabaseDescription; databasePart: { role: PartRole; file: string } }> {
  if (database.kind === 'postgres') {
    // As the owner role when there is one: the server's own role may not read Kysely's migration
    // table (db/grant-app-role.ts), and pg_dump must read everything. Its own connection, for the
    // same reason: the server's pool connects as the lesser role.
    const url = config.databaseOwnerUrl ?? config.databaseUrl;
    if (!url) throw new Error('A backup of PostgreSQL needs DATABASE_URL.');
    const file = path.join(workDirectory, PART_NAMES.pg_dump);
    const owner = openPostgres({ connectionString: url, maxConnections: 1 });
    try {
      const description = await inTransaction(
        owner.db,
        async (trx) => {
          const { rows } = await sql<{ snapshot: string }>`select pg_export_snapshot() as snapshot`.execute(
            trx,
          );
          const snapshot = rows[0]?.snapshot;
          if (!snapshot) throw new Error('PostgreSQL exported no snapshot.');
          const described = await describeDatabase(trx, 'postgres');
          await pgDump(url, snapshot, file);
          return described;
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      return { description, databasePart: { role: 'pg_dump', file } };
    } finally {
      await owner.close();
    }
  }
  const dumpDataDirectory = database.dumpDataDirectory;
  if (!dumpDataDirectory) throw new Error('This embedded database cannot dump its data directory.');
  const file = path.join(workDirectory, PART_NAMES.pglite_data_dir);
  const { description, dump } = await database.db.connection().execute(async (connection) => {
    const described = await describeDatabase(connection, 'pglite');
    await sql`checkpoint`.execute(connection);
    return { description: described, dump: await dumpDataDirectory() };
  });
  // Compressed once the connection is given back: requests wait for the dump only.
  await pipeline(Readable.fromWeb(dump.stream() as never), zlib.createGzip(), fs.createWriteStream(file));
  return { description, databasePart: { role: 'pglite_data_dir', file } };
}

/** The first `written` lines of the checkpoint file into `copy`; none when there is no file. */
async function copyCheckpoints(file: string, written: number, copy: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const lines = text.split('\n').filter((line) => line !== '');
  await fs.promises.writeFile(
    copy,
    lines
      .slice(0, written)
      .map((line) => `${line}\n`)
      .join(''),
  );
  return copy;
}

async function describePart(role: PartRole, file: string): Promise<ManifestPart> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { name: PART_NAMES[role], role, size, sha256: hash.digest('hex') };
}
