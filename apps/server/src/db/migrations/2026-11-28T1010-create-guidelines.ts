import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 18: study guidelines (protocol, CRF completion guideline, lab manual, …). Only a draft is
  // edited; a published one is revised into a new draft (supersedes_id) whose publication retires it.
  // content_html is stored sanitized.
  await db.schema
    .createTable('guidelines')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('guide_type', 'text', (col) =>
      col.notNull().check(sql`guide_type in ('protocol', 'crf_guideline', 'lab_manual', 'other')`),
    )
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('content_html', 'text', (col) => col.notNull())
    .addColumn('version', 'text', (col) => col.notNull())
    .addColumn('effective_date', 'date', (col) => col.notNull())
    .addColumn('alarm_start', 'date')
    .addColumn('alarm_end', 'date')
    .addColumn('state', 'text', (col) =>
      col.notNull().defaultTo('draft').check(sql`state in ('draft', 'published', 'retired')`),
    )
    .addColumn('supersedes_id', 'integer', (col) => col.references('guidelines.id'))
    .addColumn('author_user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz')
    .addColumn('retired_at', 'timestamptz')
    .addCheckConstraint(
      'guidelines_alarm_period',
      sql`(alarm_start is null) = (alarm_end is null) and (alarm_start is null or alarm_start <= alarm_end)`,
    )
    .execute();
  await db.schema
    .createIndex('guidelines_study_created')
    .on('guidelines')
    .columns(['study_id', 'created_at'])
    .execute();
}
