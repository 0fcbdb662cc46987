import { type Kysely, sql } from 'kysely';
import { knownMigrationNames } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

/** How long `/health/ready` waits for the database before it says not ready. */
export const READINESS_TIMEOUT_MS = 2000;

/**
 * `database`: `ok` when it answered `select 1`, `failed` when it refused or did not answer in time.
 * `migrations`: `current` when every migration of this code is applied; `pending` when some are not
 * (listed); `unchecked` when the database did not answer, or the server's role may not read the
 * migrator's bookkeeping (DATABASE_OWNER_URL set: only the owner may) — then the migration at start,
 * which ran before the server listened, is what vouches for them.
 */
export type Readiness =
  | { ready: true; database: 'ok'; migrations: 'current' | 'unchecked' }
  | { ready: false; database: 'ok' | 'failed'; migrations: 'pending' | 'unchecked'; pending?: string[] };

/**
 * Whether this process can serve (issue 52 item 2): the database answers, and it holds every
 * migration this code expects — a database restored from an older backup, or migrated by nobody,
 * is not ready. Migrations the code does not know (a newer version ran them) do not make it unready:
 * migrations only add, and a rolling upgrade has old processes serving beside new ones. Never throws.
 */
export async function checkReadiness(
  db: Kysely<Database>,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const inTime = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => {});
    return Promise.race([
      work,
      new Promise<never>((_, reject) =>
        deadline.signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true }),
      ),
    ]);
  };
  try {
    try {
      await inTime(sql`select 1`.execute(db));
    } catch {
      return { ready: false, database: 'failed', migrations: 'unchecked' };
    }
    let applied: Set<string>;
    try {
      const result = await inTime(sql<{ name: string }>`select name from kysely_migration`.execute(db));
      applied = new Set(result.rows.map((row) => row.name));
    } catch (error) {
      // 42501: insufficient_privilege (the server's role under DATABASE_OWNER_URL).
      if ((error as { code?: string }).code === '42501')
        return { ready: true, database: 'ok', migrations: 'unchecked' };
      return { ready: false, database: 'failed', migrations: 'unchecked' };
    }
    const pending = (await knownMigrationNames()).filter((name) => !applied.has(name));
    return pending.length === 0
      ? { ready: true, database: 'ok', migrations: 'current' }
      : { ready: false, database: 'ok', migrations: 'pending', pending };
  } finally {
    clearTimeout(timer);
  }
}
