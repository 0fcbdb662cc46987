import { createHash } from 'node:crypto';
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
  /** PostgreSQL only: the pool's connections now (for /metrics, metrics/create-metrics.ts). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * PGlite only: its data directory as one tar (PGlite's `dumpDataDir`, built in memory), for a backup
   * (backup/write-backup.ts). The caller holds the one connection (`db.connection()`) meanwhile, so
   * no transaction is half done in the files.
   */
  dumpDataDirectory?: () => Promise<Blob>;
}

const INT8_OID = 20;
const DATE_OID = 1082;
const BYTEA_OID = 17;

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
  /** The pool's size: the server passes DATABASE_POOL_SIZE (config.ts); 8 when not given. */
  maxConnections?: number;
  /** Kysely's log of every statement sent (tests count a request's round trips with it). */
  log?: LogConfig;
}

/** How Kysely starts a transaction: `begin`, or `start transaction …` with an isolation level. */
const TRANSACTION_START = /^(begin|start transaction)\b/i;

/** Distinct statements one connection keeps prepared; later new texts run unprepared. */
const PREPARED_STATEMENTS_PER_CONNECTION = 300;

/** PostgreSQL's answer to a prepared statement whose result columns a migration changed. */
function isStalePreparedStatement(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === '0A000' &&
    error.message.includes('cached plan must not change result type')
  );
}

/**
 * A connection that prepares each statement text the first time it sees it and afterwards only
 * binds and executes it: PostgreSQL then skips parsing and analysing the statement and, once its
 * plan cache settles, planning it — a third of the database's CPU for the short statements of a
 * save or a read (docs/PERFORMANCE.md). The name is a hash of the text, so one text is one
 * prepared statement. Texts vary with the length of their IN lists, so a connection prepares at
 * most `PREPARED_STATEMENTS_PER_CONNECTION` (the hot ones come first) and runs any further text
 * unnamed, which keeps the memory the backend spends on them bounded.
 *
 * A migration that changes a table's columns (another server process starting a new version)
 * makes a prepared `select *` of it fail once: the connection then starts new names, and a
 * statement outside a transaction is run again at once.
 */
class PreparingClient extends pg.Client {
  /** The name of each prepared text: a lookup per statement instead of hashing the text again. */
  #prepared = new Map<string, string>();
  #generation = 0;
  /** A BEGIN sent and not yet answered (`#startTransaction`). */
  #beginInFlight: Promise<unknown> | null = null;

  /**
   * Statements sent in one tick of the event loop leave in one socket write: the socket is corked
   * at the first and uncorked once the tick's promise callbacks have run (a `process.nextTick`
   * queued from them runs after them). A transaction's audit append and the COMMIT sent behind it
   * (in-transaction.ts) go together so; a lone statement leaves at the end of its tick, without
   * waiting for anything. Each write wakes a PostgreSQL backend, and each answer wakes this
   * process (docs/PERFORMANCE.md, "Where the time goes").
   */
  #holdWritesForThisTick(): void {
    const stream = this.connection.stream;
    // Already corked: by an earlier statement of this tick, whose uncork is queued.
    if (stream.writableCorked > 0) return;
    stream.cork();
    process.nextTick(() => stream.uncork());
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg.Client.query is heavily overloaded; Kysely calls (text, values).
  override query(...args: any[]): any {
    this.#holdWritesForThisTick();
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && args.length === 2) {
      if (TRANSACTION_START.test(text)) return this.#startTransaction(text);
      const begin = this.#beginInFlight;
      this.#beginInFlight = null;
      let name = this.#prepared.get(text);
      if (name === undefined && this.#prepared.size < PREPARED_STATEMENTS_PER_CONNECTION) {
        name = `q${this.#generation}_${createHash('sha1').update(text).digest('base64url')}`;
        this.#prepared.set(text, name);
      }
      const answer =
        name !== undefined
          ? this.#queryPrepared(name, text, values, begin === null)
          : (super.query(text, values) as Promise<pg.QueryResult>);
      return begin === null ? answer : Promise.all([begin, answer]).then(([, result]) => result);
    }
    // biome-ignore lint/suspicious/noExplicitAny: see above.
    return (super.query as any)(...args);
  }

  /**
   * BEGIN (or START TRANSACTION) is sent and reported done at once, so the transaction's first
   * statement is sent right behind it, in the same socket write, instead of after a round trip.
   * That statement's answer waits for BEGIN's: a BEGIN that failed fails it. BEGIN fails only on a
   * connection that is already broken, which fails the statement behind it too.
   */
  #startTransaction(text: string): Promise<pg.QueryResult> {
    const begun = super.query(text);
    // Observed by the next statement; until then a failure must not count as unhandled.
    begun.catch(() => {});
    this.#beginInFlight = begun;
    return Promise.resolve({ command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] });
  }

  async #queryPrepared(
    name: string,
    text: string,
    values: unknown[],
    noBeginInFlight: boolean,
  ): Promise<pg.QueryResult> {
    const outsideTransaction = noBeginInFlight && this.getTransactionStatus() === 'I';
    try {
      return await super.query({ name, text, values });
    } catch (error) {
      if (!isStalePreparedStatement(error)) throw error;
      this.#generation += 1;
      this.#prepared.clear();
      if (!outsideTransaction) throw error;
      return super.query(text, values);
    }
  }
}

function ignoreEndedIdleConnection(): void {}

export function openPostgres(options: PostgresOptions): DatabaseHandle {
  const pool = new pg.Pool({
    Client: PreparingClient,
    // Each statement is sent at once, without waiting for the answer to the one before: a
    // transaction's COMMIT goes right behind its audit append (in-transaction.ts). Statements that
    // wait for each other's results (almost all) are sent one after another as before.
    pipeline: true,
    connectionString: options.connectionString,
    max: options.maxConnections ?? 8,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // A connection resting in the pool can be ended by the server (a restart, pg_terminate_backend,
  // a dropped database). node-postgres then emits 'error' on the pool, and an 'error' event nobody
  // listens to ends the Node process. The pool has already let that connection go and opens a new
  // one when asked, so there is nothing to do but not crash.
  pool.on('error', ignoreEndedIdleConnection);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    db,
    kind: 'postgres',
    close: () => db.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Opens an embedded PGlite instance around an existing PGlite object (tests use snapshots). */
export function wrapPGlite(
  pglite: PGlite,
  onClose?: () => void,
  options: { log?: LogConfig } = {},
): DatabaseHandle {
  // bytea goes in as one hex string built by Buffer (see pgliteParsers for the way out).
  pglite.serializers[BYTEA_OID] = serializeBytea;
  const db = new Kysely<Database>({
    dialect: new PGliteDialect(pglite),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    db,
    kind: 'pglite',
    dumpDataDirectory: () => pglite.dumpDataDir('none'),
    close: async () => {
      await db.destroy();
      await pglite.close();
      onClose?.();
    },
  };
}

/**
 * PGlite's own bytea codec goes byte by byte through JavaScript arrays and strings (`Array.from(bytes)
 * .map(...)` in, one `parseInt` per byte out): ~100 bytes of heap per byte of file, so a 5 MB upload
 * ran the 192 MB heap out and 3 MB took 6.6 s (issue 43). A parameter handed to PGlite as bytes goes
 * in binary format, which for bytea is the bytes themselves: no text at all. (Results come back as
 * text, '\\x' and hex: `pgliteParsers` decodes them natively.) Files are stored in 1 MB chunks
 * anyway (attachments/attachment-chunks.ts), so no single value is large.
 */
function serializeBytea(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  // PGlite's typing says a serializer returns text; its Bind message takes bytes as binary format.
  return value as unknown as string;
}

export const pgliteParsers = {
  [INT8_OID]: (value: string) => Number.parseInt(value, 10),
  [DATE_OID]: (value: string) => value,
  // '\x' then hex digits (bytea_output = hex, the default).
  [BYTEA_OID]: (value: string) => Buffer.from(value.slice(2), 'hex'),
};

/**
 * Opens the embedded database in `dataDir`, refusing if another process has it open. PGlite is
 * imported only here, when it is used: loading it costs a server on PostgreSQL ~40 MB of memory.
 * `loadDataDir`: a dumped data directory to fill a new one with (a restore, backup/restore-backup.ts).
 */
export async function openPGlite(
  dataDir: string,
  options: { loadDataDir?: Blob } = {},
): Promise<DatabaseHandle> {
  const unlock = lockDataDirectory(dataDir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create({
      dataDir: path.join(dataDir, 'pgdata'),
      parsers: pgliteParsers,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    return wrapPGlite(pglite, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}
