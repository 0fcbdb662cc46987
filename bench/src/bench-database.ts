import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { DatabaseHandle } from '../../apps/server/src/db/database.ts';
import { openDatabase } from '../../apps/server/src/open-database.ts';

export type DatabaseKind = 'postgres' | 'pglite';

/** A throw-away database of one bench run: a fresh PostgreSQL database or a PGlite data directory. */
export interface BenchDatabase {
  kind: DatabaseKind;
  /** What the report calls it: the database name or the data directory. */
  where: string;
  /** The server's environment for it. */
  env: Record<string, string>;
}

export const DEFAULT_POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function runOnAdminDatabase(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(
  kind: DatabaseKind,
  adminUrl: string,
  label: string,
): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(path.join(tmpdir(), `cdms-bench-${label}-`));
    return { kind, where: dataDir, env: { DATA_DIR: dataDir } };
  }
  const name = `cdms_bench_${label}_${process.pid}`.replace(/[^a-z0-9_]/g, '_');
  await runOnAdminDatabase(adminUrl, `create database ${name}`);
  return { kind, where: name, env: { DATABASE_URL: databaseUrl(adminUrl, name) } };
}

/** A PostgreSQL bench database an earlier run kept (`--keep`), to measure again (`--reuse`). */
export function reusedPostgresDatabase(adminUrl: string, name: string): BenchDatabase {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`--reuse: not a bench database name: ${name}`);
  return { kind: 'postgres', where: name, env: { DATABASE_URL: databaseUrl(adminUrl, name) } };
}

export async function dropBenchDatabase(database: BenchDatabase, adminUrl: string): Promise<void> {
  if (database.kind === 'pglite') await rm(database.where, { recursive: true, force: true });
  else await runOnAdminDatabase(adminUrl, `drop database if exists ${database.where} with (force)`);
}

/** Opens (and migrates) the database as the server would, for the bench's own writes. */
export function openBenchDatabase(database: BenchDatabase): Promise<DatabaseHandle> {
  return openDatabase(loadConfig({ ...database.env, CDMS_DEMO: '0' }));
}
