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
 * The names of the migrations this version of the code carries, oldest first, as the migrator
 * records them (the file name without `.ts`). `/health/ready` compares them with the database's.
 */
export async function knownMigrationNames(): Promise<string[]> {
  const files = (await fs.readdir(MIGRATIONS_DIR)).filter((file) => MIGRATION_FILE.test(file)).sort();
  return files.map((file) => file.replace(/\.ts$/, ''));
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
  let outcome = await migrator.migrateToLatest();
  // Another schema or its table dropped while the migrator listed them (see below): nothing ran yet.
  for (let retry = 0; retry < VANISHED_RELATION_RETRIES; retry++) {
    if (!isVanishedRelationElsewhere(outcome, schema)) break;
    outcome = await migrator.migrateToLatest();
  }
  const { error, results } = outcome;
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

const VANISHED_RELATION_RETRIES = 3;

/**
 * Whether the migrator failed before running any migration because ANOTHER schema, or one of its
 * tables, was dropped while it looked for its own bookkeeping table: it finds that table
 * by listing every table of every schema (kysely's introspector), which fails with "relation …
 * does not exist" (42P01) or "schema … does not exist" (3F000) when one of them vanishes
 * mid-listing. The tests drop their schemas while other test files migrate theirs; nothing was
 * changed, so the migration is simply tried again.
 */
export function isVanishedRelationElsewhere(
  outcome: { error?: unknown; results?: ReadonlyArray<{ status: string }> | undefined },
  schema: string,
): boolean {
  const { error, results } = outcome;
  if (!(error instanceof Error) || results?.some((result) => result.status === 'Error')) return false;
  const code = (error as { code?: string }).code;
  const vanished =
    code === '42P01'
      ? /relation "([^"]+)\.[^".]+" does not exist/.exec(error.message)
      : code === '3F000'
        ? /schema "([^"]+)" does not exist/.exec(error.message)
        : null;
  return vanished !== null && vanished[1] !== schema;
}
