import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Queries on items: system queries come from edit checks of severity "query" (one per check and
  // item while it fails), manual ones from monitors (a later issue adds their workflow).
  await db.schema
    .createTable('queries')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('item_path', 'text', (col) => col.notNull())
    .addColumn('check_id', 'text')
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('system', 'manual')`))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('open', 'answered', 'closed', 'cancelled')`),
    )
    .addColumn('message', 'jsonb', (col) => col.notNull())
    .addColumn('opened_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('opened_by', 'integer', (col) => col.references('users.id'))
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await sql`
    create unique index queries_one_open_system_query
    on queries (subject_id, visit_key, form_key, check_id, item_path)
    where kind = 'system' and status in ('open', 'answered')`.execute(db);
  await db.schema
    .createIndex('queries_subject_idx')
    .on('queries')
    .columns(['subject_id', 'status'])
    .execute();

  await db.schema
    .createTable('form_comments')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('section_key', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull().check(sql`char_length(text) between 1 and 3500`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id'))
    .execute();
}
