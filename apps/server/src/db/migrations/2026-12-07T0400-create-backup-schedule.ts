import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 52: scheduled backups (BACKUP_INTERVAL_HOURS). Every server process sharing the database
  // runs the schedule; the one whose UPDATE moves `last_claimed_at` past the interval takes the
  // backup, the others find the row moved (backup/claim-scheduled-backup.ts). One row.
  await db.schema
    .createTable('backup_schedule')
    .addColumn('singleton', 'boolean', (col) => col.primaryKey().defaultTo(true).check(sql`singleton`))
    .addColumn('last_claimed_at', 'timestamptz')
    .execute();
  await sql`insert into backup_schedule (singleton) values (true)`.execute(db);
}
