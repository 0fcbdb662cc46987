import { PGlite } from '@electric-sql/pglite';
import type { LogConfig } from 'kysely';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import {
  type DatabaseHandle,
  type DatabaseKind,
  openPostgres,
  pgliteParsers,
  wrapPGlite,
} from '../src/db/database.ts';
import {
  copyPostgresTemplate,
  dropPostgresDatabase,
  pgliteSnapshot,
  type TestSeed,
} from './database-templates.ts';

/** PGlite always; real PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabaseOptions {
  /** Kysely's log of every statement the database is sent. */
  log?: LogConfig;
  /**
   * What the database holds when the file gets it (database-templates.ts): `none` (default) the
   * migrated schema, `demo` the demo study, sites and accounts, `living-demo` the living demo.
   */
  seed?: TestSeed;
}

/**
 * A fresh database for one test file, a copy of one global-setup.ts migrated (and seeded) once:
 * - PGlite: loaded from the snapshot file of the seed;
 * - PostgreSQL: a new database of its own made with CREATE DATABASE … TEMPLATE, dropped on close.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<DatabaseHandle> {
  const sources = inject('testDatabaseSources');
  const seed = options.seed ?? 'none';
  const logOptions = options.log ? { log: options.log } : {};
  if (kind === 'pglite') {
    const pglite = await PGlite.create({
      loadDataDir: await pgliteSnapshot(sources, seed),
      parsers: pgliteParsers,
    });
    return wrapPGlite(pglite, undefined, logOptions);
  }

  const postgres = sources.postgres;
  if (!postgres) throw new Error('TEST_DATABASE_URL is not set.');
  const name = `${postgres.prefix}_f${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const database = openPostgres({
    connectionString: await copyPostgresTemplate(postgres, seed, name),
    maxConnections: 20,
    ...logOptions,
  });
  return {
    ...database,
    close: async () => {
      await database.close();
      await dropPostgresDatabase(postgres.url, name);
    },
  };
}

/**
 * Runs `body` once per database kind, each with its own fresh database for the whole block:
 *
 *   describeWithDatabase('notices', (database) => {
 *     it('lists', async () => { await database().db.selectFrom(...) });
 *   }, { seed: 'demo' });
 */
export function describeWithDatabase(
  name: string,
  body: (database: () => DatabaseHandle) => void,
  options: TestDatabaseOptions & { kinds?: DatabaseKind[] } = {},
): void {
  // `kinds` narrows the kinds run, for a test of something only one kind has.
  const kinds = testDatabaseKinds().filter((kind) => options.kinds?.includes(kind) ?? true);
  for (const kind of kinds) {
    describe(`${name} [${kind}]`, () => {
      let handle: DatabaseHandle | undefined;
      // Minutes, not the default minute: the first file to ask for the living demo seeds it.
      beforeAll(async () => {
        handle = await createTestDatabase(kind, options);
      }, 300_000);
      afterAll(async () => {
        await handle?.close();
      });
      body(() => {
        if (!handle) throw new Error('The test database is not open yet (use it inside a test or hook).');
        return handle;
      });
    });
  }
}
