import { sql } from 'kysely';
import { openPostgres } from './database.ts';

/** Any fixed number; only this function takes it (grant-app-role.ts has its own). */
const STARTUP_LOCK_KEY = 7_311_202_612;

/**
 * Runs a server's start-up work (migrations, the read model's check, the demo's seed) holding a
 * PostgreSQL advisory lock, so that processes started together on one database do it one after
 * another: the first does the work, the others find it done. Without it, three processes started
 * at once on an empty database with CDMS_DEMO each seeded the demo, and two died on its unique keys.
 *
 * A session lock on a connection of its own (never one of the pool the work uses, which may hold a
 * single connection): a process that dies holding it releases it with that connection. Without a
 * PostgreSQL URL (the embedded PGlite) there is nothing to take: one process alone opens its data
 * directory (data-dir-lock.ts).
 */
export async function holdStartupLock<T>(
  databaseUrl: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!databaseUrl) return work();
  const lock = openPostgres({ connectionString: databaseUrl, maxConnections: 1 });
  try {
    return await lock.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(connection);
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(connection);
      }
    });
  } finally {
    await lock.close();
  }
}
