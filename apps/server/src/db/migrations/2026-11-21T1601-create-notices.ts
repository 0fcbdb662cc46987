import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Notices per study; study_id null means a notice for every study. content_html is stored
  // sanitized (never raw). Deleting only marks deleted_at, so the audit trail can still point at it.
  await db.schema
    .createTable('notices')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.references('studies.id'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('content_html', 'text', (col) => col.notNull())
    .addColumn('pinned', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('visible', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('author_user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('notices_study_created_idx')
    .on('notices')
    .columns(['study_id', 'created_at'])
    .execute();
}
