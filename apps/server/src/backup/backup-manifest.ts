import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { DatabaseKind } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * `manifest.json`, the first part of every backup: what wrote it, what the database held at the
 * moment of the dump, and the SHA-256 of every other part. A restore checks all of it before it
 * writes anything, and compares the restored database's counts with it afterwards.
 */
export const MANIFEST_NAME = 'manifest.json';
export const BACKUP_FORMAT = 'cdms-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** What each part is: the database dump (one of two kinds), or the signed audit checkpoints. */
export const partRoles = ['pg_dump', 'pglite_data_dir', 'audit_checkpoints'] as const;

const storedFilesSchema = z.object({ count: z.number().int(), bytes: z.number().int() });

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int(),
  createdAt: z.string(),
  app: z.object({ version: z.string(), releaseDate: z.string() }),
  database: z.object({
    kind: z.enum(['postgres', 'pglite']),
    /** `select version()` of the database dumped. */
    serverVersion: z.string(),
    /** The migrations the database had run, oldest first. */
    migrations: z.array(z.string()),
  }),
  /** Rows per table of the application's schema at the moment of the dump. */
  tables: z.record(z.string(), z.number().int()),
  audit: z.object({
    /** The chain's head: its last record's id and hash (null: no record yet). */
    head: z.object({ lastId: z.number().int(), lastHash: z.string() }).nullable(),
    /** How many signed checkpoints the database counted, and the last one's anchor. */
    checkpoints: z.object({
      written: z.number().int(),
      lastAuditEventId: z.number().int().nullable(),
      lastHmac: z.string().nullable(),
    }),
  }),
  /** The stored files, which live in the database's tables (their bytes are in the dump). */
  files: z.object({
    attachments: storedFilesSchema,
    formPhotos: storedFilesSchema,
    uploadedImages: storedFilesSchema,
    finishedExports: storedFilesSchema,
  }),
  parts: z.array(
    z.object({
      name: z.string(),
      role: z.enum(partRoles),
      size: z.number().int(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type ManifestPart = BackupManifest['parts'][number];

/** What a manifest says of the database, read in one snapshot (the caller's transaction or connection). */
export type DatabaseDescription = Pick<BackupManifest, 'database' | 'tables' | 'audit' | 'files'>;

/**
 * The description of the database `db` sees. Called inside the transaction whose snapshot the dump
 * is taken from (PostgreSQL) or on the one connection held while the data directory is dumped
 * (PGlite), so the counts are the dump's own.
 */
export async function describeDatabase(
  db: Kysely<Database>,
  kind: DatabaseKind,
): Promise<DatabaseDescription> {
  const version = await sql<{ version: string }>`select version() as version`.execute(db);
  const migrations = await sql<{ name: string }>`
    select name from kysely_migration order by name`.execute(db);
  const head = await db.selectFrom('audit_chain_head').select(['last_id', 'last_hash']).executeTakeFirst();
  const checkpoints = await db
    .selectFrom('audit_checkpoint_head')
    .select(['written', 'last_audit_event_id', 'last_hmac'])
    .executeTakeFirst();
  return {
    database: {
      kind,
      serverVersion: version.rows[0]?.version ?? '',
      migrations: migrations.rows.map((row) => row.name),
    },
    tables: await countRowsPerTable(db),
    audit: {
      head: head && head.last_id > 0 ? { lastId: head.last_id, lastHash: head.last_hash } : null,
      checkpoints: {
        written: checkpoints?.written ?? 0,
        lastAuditEventId: checkpoints?.last_audit_event_id ?? null,
        lastHmac: checkpoints?.last_hmac ?? null,
      },
    },
    files: {
      attachments: await storedFiles(db, sql`attachments`, sql`size`),
      formPhotos: await storedFiles(db, sql`form_photos`, sql`size`),
      uploadedImages: await storedFiles(db, sql`uploaded_images`, sql`size`),
      finishedExports: await storedFiles(db, sql`data_exports`, sql`byte_size`, sql`state = 'done'`),
    },
  };
}

/** The application's tables (the connection's schema, without the views) and their rows, by name. */
async function countRowsPerTable(db: Kysely<Database>): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const result = await sql<{
      count: number;
    }>`select count(*)::int as count from ${sql.table(name)}`.execute(db);
    counts[name] = result.rows[0]?.count ?? 0;
  }
  return counts;
}

/** How many files a table holds and their bytes in all. */
async function storedFiles(
  db: Kysely<Database>,
  table: RawBuilder<unknown>,
  sizeColumn: RawBuilder<unknown>,
  where: RawBuilder<unknown> = sql`true`,
): Promise<{ count: number; bytes: number }> {
  const result = await sql<{ count: number; bytes: number }>`
    select count(*)::int as count, coalesce(sum(${sizeColumn}), 0)::int8 as bytes
    from ${table} where ${where}`.execute(db);
  return { count: result.rows[0]?.count ?? 0, bytes: result.rows[0]?.bytes ?? 0 };
}
