import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { pgliteParsers, wrapPGlite } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshotPath: string;
  }
}

/**
 * Runs once before the server's tests: migrate an in-memory PGlite database and dump its data
 * directory to a file. Each test file then loads that snapshot (much faster than migrating anew).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pglite = await PGlite.create({ parsers: pgliteParsers });
  const database = wrapPGlite(pglite);
  await migrateToLatest(database.db);
  const snapshot = await pglite.dumpDataDir('none');
  await database.close();

  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'cdms-test-snapshot-'));
  const snapshotPath = path.join(directory, 'migrated.tar');
  await fs.writeFile(snapshotPath, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshotPath', snapshotPath);

  return async () => {
    await fs.rm(directory, { recursive: true, force: true });
  };
}
