import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Whether this process takes the scheduled backup now: true for exactly one of the processes
 * sharing the database once `intervalHours` have passed since the last one was claimed. One UPDATE
 * of the one row: a second process running it at the same moment waits for the first's row lock,
 * then finds the row already moved and changes nothing.
 *
 * A process that dies during its backup leaves that slot without a backup; the next comes an
 * interval later (the log says so: it never said "backup written").
 */
export async function claimScheduledBackup(db: Kysely<Database>, intervalHours: number): Promise<boolean> {
  const claimed = await db
    .updateTable('backup_schedule')
    .set({ last_claimed_at: sql`now()` })
    .where('singleton', '=', true)
    .where((eb) =>
      eb.or([
        eb('last_claimed_at', 'is', null),
        eb('last_claimed_at', '<=', sql<Date>`now() - make_interval(hours => ${intervalHours})`),
      ]),
    )
    .returning('last_claimed_at')
    .executeTakeFirst();
  return claimed !== undefined;
}
