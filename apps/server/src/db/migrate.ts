import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_FILE = /^\d{4}-\d{2}-\d{2}T\d{4}-[a-z0-9-]+\.ts$/;

/**
 * Loads every file of ./migrations. Names start with a UTC timestamp (2026-11-21T1400-what.ts), so
 * their alphabetical order is the order they were written in. Migrations only move forward: there
 * is no `down`, and a landed migration is never edited; a correction is a new migration.
 */
class MigrationFolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(MIGRATIONS_DIR)).filter((file) => MIGRATION_FILE.test(file)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const module = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Migration;
      migrations[file.replace(/\.ts$/, '')] = { up: module.up };
    }
    return migrations;
  }
}

/**
 * Brings the database up to the newest migration; throws with the failing migration's name.
 * `schema` is where the tables go (the connection's search_path must name it first).
 */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema.
export async function migrateToLatest(db: Kysely<any>, schema = 'public'): Promise<string[]> {
  // Name the schema of Kysely's own bookkeeping tables: otherwise it may find them in another
  // schema of the same database (the tests give each file its own) and skip creating them.
  const migrator = new Migrator({
    db,
    provider: new MigrationFolderProvider(),
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : error}`, {
      cause: error,
    });
  }
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}
