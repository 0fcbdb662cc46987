import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The task list's "recently viewed" strip: the last time each user opened each study.
  await db.schema
    .createTable('study_views')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('viewed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('study_views_pk', ['user_id', 'study_id'])
    .execute();
}
