import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  buildPgliteSnapshots,
  buildPostgresTemplates,
  dropPostgresTestDatabases,
  type TestDatabaseSources,
} from './database-templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseSources: TestDatabaseSources;
  }
}

/**
 * Runs once before the server's tests: every database a test file is given is a copy of one made
 * here (database-templates.ts), never migrated or seeded anew per file.
 * - PGlite: the migrated database, and the same with the demo study and accounts, dumped to files.
 * - PostgreSQL (TEST_DATABASE_URL): the same two as template databases of this run.
 * The living demo's copies are made on first use, once per run (database-templates.ts). The two
 * kinds are built side by side; the teardown drops this run's databases and deletes the files.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const snapshotDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'cdms-test-snapshots-'));
  const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
  // Short and unique per run: every database of the run starts with it (PostgreSQL's 63 bytes).
  const postgresPrefix = `cdms_t${process.pid}_${Date.now().toString(36)}`;
  try {
    await Promise.all([
      buildPgliteSnapshots(snapshotDirectory),
      postgresUrl ? buildPostgresTemplates(postgresUrl, postgresPrefix) : undefined,
    ]);
  } catch (error) {
    if (postgresUrl) await dropPostgresTestDatabases(postgresUrl, postgresPrefix);
    await fs.rm(snapshotDirectory, { recursive: true, force: true });
    throw error;
  }
  project.provide('testDatabaseSources', {
    snapshotDirectory,
    ...(postgresUrl ? { postgres: { url: postgresUrl, prefix: postgresPrefix } } : {}),
  });

  return async () => {
    if (postgresUrl) await dropPostgresTestDatabases(postgresUrl, postgresPrefix);
    await fs.rm(snapshotDirectory, { recursive: true, force: true });
  };
}
