import { type Kysely, sql } from 'kysely';
import type { Config } from './config.ts';
import { type DatabaseHandle, openPGlite, openPostgres } from './db/database.ts';
import { grantAppRole } from './db/grant-app-role.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import { ensureReadModel } from './read-model/rebuild-read-model.ts';

/**
 * Opens the configured database — PostgreSQL when DATABASE_URL is set, else the embedded PGlite in
 * DATA_DIR (created on first use) — and migrates it to the newest schema.
 *
 * With DATABASE_OWNER_URL as well, the owner role migrates and grants the DATABASE_URL role its
 * rights (grant-app-role.ts); the handle returned connects as that lesser role.
 */
export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl && config.databaseOwnerUrl) {
    return openWithOwnerRole(config.databaseUrl, config.databaseOwnerUrl, config.databasePoolSize);
  }
  const database = config.databaseUrl
    ? openPostgres({ connectionString: config.databaseUrl, maxConnections: config.databasePoolSize })
    : await openPGlite(config.dataDir);
  try {
    await migrateToLatest(database.db);
    await ensureReadModel(database.db);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * Opens the configured database as it is, as the server's role (DATABASE_URL; DATABASE_OWNER_URL is
 * never used): no migration, no read-model check, nothing written. For `audit verify`, which an
 * auditor runs with the server's credentials or a read-only role's, and which must not change what
 * it inspects. A database older than this version is reported by the caller, not migrated.
 */
export async function openDatabaseAsIs(config: Config): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres({ connectionString: config.databaseUrl, maxConnections: 1 })
    : await openPGlite(config.dataDir);
}

async function openWithOwnerRole(
  databaseUrl: string,
  ownerUrl: string,
  poolSize: number,
): Promise<DatabaseHandle> {
  const app = openPostgres({ connectionString: databaseUrl, maxConnections: poolSize });
  const owner = openPostgres({ connectionString: ownerUrl, maxConnections: 1 });
  try {
    const { role: ownerRole, schema } = await whoAmI(owner.db);
    await migrateToLatest(owner.db, schema);
    // The server's role as the database sees it (the URL may leave the user name to PGUSER).
    const { role: appRole } = await whoAmI(app.db);
    if (appRole !== ownerRole) await grantAppRole(owner.db, { role: appRole, schema });
    await ensureReadModel(app.db);
    return app;
  } catch (error) {
    await app.close();
    throw error;
  } finally {
    await owner.close();
  }
}

async function whoAmI(db: Kysely<Database>): Promise<{ role: string; schema: string }> {
  const result = await sql<{
    role: string;
    schema: string;
  }>`select current_user as role, current_schema() as schema`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('The database did not say who we are.');
  return row;
}
