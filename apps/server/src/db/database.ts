import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, type LogConfig, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataDirectory } from './data-dir-lock.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

const INT8_OID = 20;
const DATE_OID = 1082;

// Both drivers read the same types:
// - int8 (counts, audit ids) as plain numbers: our values stay far below 2^53;
// - `date` as the 'YYYY-MM-DD' text itself: a calendar date has no time zone, and turning it into
//   a JavaScript Date would shift it by the server's offset.
pg.types.setTypeParser(INT8_OID, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(DATE_OID, (value) => value);

export interface PostgresOptions {
  connectionString: string;
  /** A schema to use instead of `public` (the test helper gives each test file its own). */
  schema?: string;
  maxConnections?: number;
  /** Kysely's log of every statement sent (tests count a request's round trips with it). */
  log?: LogConfig;
}

export function openPostgres(options: PostgresOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Opens an embedded PGlite instance around an existing PGlite object (tests use snapshots). */
export function wrapPGlite(
  pglite: PGlite,
  onClose?: () => void,
  options: { log?: LogConfig } = {},
): DatabaseHandle {
  const db = new Kysely<Database>({
    dialect: new PGliteDialect(pglite),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      await pglite.close();
      onClose?.();
    },
  };
}

export const pgliteParsers = {
  [INT8_OID]: (value: string) => Number.parseInt(value, 10),
  [DATE_OID]: (value: string) => value,
};

/**
 * Opens the embedded database in `dataDir`, refusing if another process has it open. PGlite is
 * imported only here, when it is used: loading it costs a server on PostgreSQL ~40 MB of memory.
 */
export async function openPGlite(dataDir: string): Promise<DatabaseHandle> {
  const unlock = lockDataDirectory(dataDir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), parsers: pgliteParsers });
    return wrapPGlite(pglite, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}
