import type { Config } from '../config.ts';
import { type DatabaseHandle, openPGlite, openPostgres } from './database.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * Opens the configured database — PostgreSQL when DATABASE_URL is set, else the embedded PGlite in
 * DATA_DIR (created on first use) — and migrates it to the newest schema.
 */
export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  const database = config.databaseUrl
    ? openPostgres({ connectionString: config.databaseUrl })
    : await openPGlite(config.dataDir);
  try {
    await migrateToLatest(database.db);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
