import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { type LogConfig, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import {
  type DatabaseHandle,
  type DatabaseKind,
  openPostgres,
  pgliteParsers,
  wrapPGlite,
} from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

/** PGlite always; real PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabaseOptions {
  /** Kysely's log of every statement the database is sent, migrations included. */
  log?: LogConfig;
}

/**
 * A fresh, migrated database for one test file.
 * - PGlite: loaded from the snapshot that global-setup.ts migrated once.
 * - PostgreSQL: a new schema of its own in TEST_DATABASE_URL, migrated, dropped on close.
 */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    const snapshot = await fs.readFile(inject('pgliteSnapshotPath'));
    const pglite = await PGlite.create({ loadDataDir: new Blob([snapshot]), parsers: pgliteParsers });
    return wrapPGlite(pglite, undefined, options);
  }

  const connectionString = process.env.TEST_DATABASE_URL;
  if (!connectionString) throw new Error('TEST_DATABASE_URL is not set.');
  const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();

  const database = openPostgres({ connectionString, schema, maxConnections: 20, ...options });
  const close = async () => {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
    await database.close();
  };
  try {
    await migrateToLatest(database.db, schema);
  } catch (error) {
    await close();
    throw error;
  }
  return { ...database, close };
}

/**
 * Runs `body` once per database kind, each with its own fresh database for the whole block:
 *
 *   describeWithDatabase('notices', (database) => {
 *     it('lists', async () => { await database().db.selectFrom(...) });
 *   });
 */
export function describeWithDatabase(
  name: string,
  body: (database: () => DatabaseHandle) => void,
  options: TestDatabaseOptions = {},
): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let handle: DatabaseHandle | undefined;
      beforeAll(async () => {
        handle = await createTestDatabase(kind, options);
      });
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
