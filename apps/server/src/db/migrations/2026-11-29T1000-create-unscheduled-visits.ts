import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 19 item 1: the unscheduled visits site staff add to a subject. Its data live under the visit
  // key `unscheduled-<repeat_key>` like any visit's; this row holds the visit itself (date and reason).
  // Repeat keys count from 1 per subject and are never reused: a deleted visit keeps its row
  // (`deleted_at`, `deletion_reason`), so the unique (subject_id, repeat_key) holds across deletions.
  await db.schema
    .createTable('unscheduled_visits')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('repeat_key', 'integer', (col) => col.notNull().check(sql`repeat_key > 0`))
    .addColumn('visit_date', 'date', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_by', 'integer', (col) => col.references('users.id'))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('deletion_reason', 'text')
    .addUniqueConstraint('unscheduled_visits_subject_repeat_key', ['subject_id', 'repeat_key'])
    .execute();
}
