import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPostgres, pgliteParsers, wrapPGlite } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/seed/demo-seed.ts';

/**
 * What a test database holds when a test file is given it:
 * - `none`: the migrated schema, no rows but the migrations' own;
 * - `demo`: the demo study, its sites and the demo accounts (seedDemo without subjects);
 * - `living-demo`: the same with the living demo's subjects, queries, signatures and the rest
 *   (seedDemo with subjects), made on first use: seeding 31 casebooks takes half a minute.
 */
export type TestSeed = 'none' | 'demo' | 'living-demo';

/** Where copies come from, handed by global-setup.ts to every test file (Vitest's `provide`). */
export interface TestDatabaseSources {
  /** PGlite: `<seed>.tar`, a dumped data directory per seed. */
  snapshotDirectory: string;
  /** PostgreSQL: template databases `<prefix>_<seed>`, copied with CREATE DATABASE … TEMPLATE. */
  postgres?: { url: string; prefix: string };
}

const snapshotPath = (directory: string, seed: TestSeed) => path.join(directory, `${seed}.tar`);

const templateName = (prefix: string, seed: TestSeed) => `${prefix}_${seed.replace('-', '_')}`;

/** The connection string of another database on the same server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One PGlite database migrated, dumped; then seeded with the demo, dumped again. */
export async function buildPgliteSnapshots(directory: string): Promise<void> {
  const pglite = await PGlite.create({ parsers: pgliteParsers });
  const database = wrapPGlite(pglite);
  try {
    await migrateToLatest(database.db);
    await writeSnapshot(pglite, snapshotPath(directory, 'none'));
    await seedDemoData(database.db, { subjects: false });
    await writeSnapshot(pglite, snapshotPath(directory, 'demo'));
  } finally {
    await database.close();
  }
}

async function writeSnapshot(pglite: PGlite, file: string): Promise<void> {
  const dump = await pglite.dumpDataDir('none');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
}

/** The template databases `none` (migrated) and `demo` (seeded) of this run. */
export async function buildPostgresTemplates(serverUrl: string, prefix: string): Promise<void> {
  await withAdminClient(serverUrl, async (admin) => {
    const migrated = templateName(prefix, 'none');
    await admin.query(`create database ${migrated}`);
    await fillDatabase(serverUrl, migrated, (db) => migrateToLatest(db));
    const demo = templateName(prefix, 'demo');
    await admin.query(`create database ${demo} template ${migrated}`);
    await fillDatabase(serverUrl, demo, (db) => seedDemoData(db, { subjects: false }));
  });
}

/** Runs `work` on the database and closes every connection to it (a template must have none). */
async function fillDatabase(
  serverUrl: string,
  name: string,
  work: (db: ReturnType<typeof openPostgres>['db']) => Promise<unknown>,
): Promise<void> {
  const database = openPostgres({ connectionString: databaseUrl(serverUrl, name), maxConnections: 4 });
  try {
    await work(database.db);
  } finally {
    await database.close();
  }
}

/** Drops every database of the run: templates and test files' copies (a crashed file's too). */
export async function dropPostgresTestDatabases(serverUrl: string, prefix: string): Promise<void> {
  await withAdminClient(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [`${prefix}_`],
    );
    for (const { datname } of rows) await dropPostgresDatabase(serverUrl, datname);
  });
}

/**
 * A new database `name` copied from the run's template of `seed` (the living demo's made first if
 * need be); returns its connection string. The run's teardown drops it if its file does not.
 */
export async function copyPostgresTemplate(
  postgres: NonNullable<TestDatabaseSources['postgres']>,
  seed: TestSeed,
  name: string,
): Promise<string> {
  const template = await postgresTemplate(postgres, seed);
  await withAdminClient(postgres.url, (admin) => admin.query(`create database ${name} template ${template}`));
  return databaseUrl(postgres.url, name);
}

/** Drops a database of the run, ending any connection still open to it. */
export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  await withAdminClient(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}

/** A copy of the PGlite snapshot of `seed`, as PGlite's `loadDataDir` takes it. */
export async function pgliteSnapshot(sources: TestDatabaseSources, seed: TestSeed): Promise<Blob> {
  const file = snapshotPath(sources.snapshotDirectory, seed);
  if (seed === 'living-demo') {
    await makeFileOnce(file, async (partial) => {
      const pglite = await PGlite.create({
        loadDataDir: new Blob([await fs.readFile(snapshotPath(sources.snapshotDirectory, 'none'))]),
        parsers: pgliteParsers,
      });
      const database = wrapPGlite(pglite);
      try {
        await seedDemoData(database.db, { subjects: true });
        await writeSnapshot(pglite, partial);
      } finally {
        await database.close();
      }
    });
  }
  return new Blob([await fs.readFile(file)]);
}

/**
 * The name of the PostgreSQL template database of `seed`. The living demo's is made by the first
 * test file that asks, under an advisory lock: the files asking meanwhile wait for the lock, then
 * find it made.
 */
async function postgresTemplate(
  postgres: NonNullable<TestDatabaseSources['postgres']>,
  seed: TestSeed,
): Promise<string> {
  const name = templateName(postgres.prefix, seed);
  if (seed !== 'living-demo') return name;
  await withAdminClient(postgres.url, async (admin) => {
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return;
    // Built under another name and renamed when whole: a file that died half-way leaves no template.
    const partial = `${name}_partial`;
    await admin.query(`drop database if exists ${partial} with (force)`);
    await admin.query(`create database ${partial} template ${templateName(postgres.prefix, 'none')}`);
    await fillDatabase(postgres.url, partial, (db) => seedDemoData(db, { subjects: true }));
    await admin.query(`alter database ${partial} rename to ${name}`);
    // The lock ends with the connection.
  });
  return name;
}

/**
 * Makes `file` with `make` (given a temporary path to write, renamed when whole) unless it exists:
 * once across the test workers, which are processes. The first to create `<file>.lock` makes it;
 * the others wait for a change in the directory (or a second, to notice a maker that died).
 */
async function makeFileOnce(file: string, make: (partial: string) => Promise<void>): Promise<void> {
  const lock = `${file}.lock`;
  for (;;) {
    if (fsSync.existsSync(file)) return;
    let owned: fs.FileHandle | undefined;
    try {
      owned = await fs.open(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!owned) {
      await nextChangeIn(path.dirname(file), 1000);
      if (!fsSync.existsSync(file)) await removeLockOfDeadMaker(lock);
      continue;
    }
    try {
      await owned.writeFile(String(process.pid));
      await owned.close();
      const partial = `${file}.${process.pid}.partial`;
      await make(partial);
      await fs.rename(partial, file);
    } finally {
      await fs.rm(lock, { force: true });
    }
    return;
  }
}

function nextChangeIn(directory: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      watcher.close();
      resolve();
    };
    const watcher = fsSync.watch(directory, done);
    const timer = setTimeout(done, timeoutMs);
  });
}

async function removeLockOfDeadMaker(lock: string): Promise<void> {
  const pid = Number(await fs.readFile(lock, 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) return; // not written yet
  try {
    process.kill(pid, 0);
  } catch {
    await fs.rm(lock, { force: true });
  }
}
