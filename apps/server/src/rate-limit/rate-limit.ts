import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Counts a hit for `key` in the current fixed window and says whether it is within `limit`.
 * Counters live in the database, so every server process shares them.
 */
export async function hitRateLimit(
  db: Kysely<Database>,
  key: string,
  limit: number,
  windowSeconds: number,
  now = new Date(),
): Promise<{ allowed: boolean; count: number }> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  if (row.count === 1) {
    // First hit of a new window: a good moment to forget windows long past.
    await db
      .deleteFrom('rate_limit_counters')
      .where('window_start', '<', new Date(now.getTime() - 86_400_000))
      .execute();
  }
  return { allowed: row.count <= limit, count: row.count };
}

/** The hits counted for `key` in the current window of `hitRateLimit`, without counting one more. */
export async function countRateLimitHits(
  db: Kysely<Database>,
  key: string,
  windowSeconds: number,
  now = new Date(),
): Promise<number> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.count ?? 0;
}
