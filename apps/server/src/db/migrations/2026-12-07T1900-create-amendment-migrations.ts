import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 49 item 4: the definition version a subject's data entry uses. Null: the study's newest
  // (a study without a published amendment); publishing an amendment pins the study's subjects to
  // the version they are on, and the migration moves each to the next one.
  await db.schema.alterTable('subjects').addColumn('definition_version', 'text').execute();
  await sql`create index subjects_by_study_version on subjects (study_id, definition_version, id)`.execute(
    db,
  );

  // A migration job: the subjects of a scope (study, site or subject) moved from the amendment's
  // version to the next, one subject per transaction, in id order. `last_subject_id` is where it
  // stands: a process that dies mid-batch leaves it at the last subject that committed, and the
  // next process whose lease (`lease_until`) finds the job free resumes after it.
  await db.schema
    .createTable('amendment_migrations')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('amendment_id', 'integer', (col) => col.notNull().references('study_amendments.id'))
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('scope', 'text', (col) => col.notNull().check(sql`scope in ('study', 'site', 'subject')`))
    .addColumn('site_id', 'integer', (col) => col.references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.references('subjects.id'))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'done')`),
    )
    .addColumn('total', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('migrated', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('held', 'integer', (col) => col.notNull().defaultTo(0))
    // The subjects the move refused, each with its error: their number is the job's count of failures.
    .addColumn('failures', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_subject_id', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lease_until', 'timestamptz')
    .addColumn('requested_by', 'integer', (col) => col.references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index amendment_migrations_pending on amendment_migrations (id) where status <> 'done'`.execute(
    db,
  );
  // A site's automatic job is started once, by whichever process sees its approval date first.
  await sql`create unique index amendment_migrations_automatic on amendment_migrations (amendment_id, site_id) where scope = 'site' and requested_by is null`.execute(
    db,
  );
  await sql`create index amendment_migrations_of_amendment on amendment_migrations (amendment_id, id)`.execute(
    db,
  );

  // A value the amendment retired: no longer entered or shown on its form, kept here as it was
  // (with the form's data and the audit trail) — never deleted.
  await db.schema
    .createTable('retired_item_values')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('amendment_id', 'integer', (col) => col.notNull().references('study_amendments.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('item_path', 'text', (col) => col.notNull())
    .addColumn('value', 'jsonb', (col) => col.notNull())
    .addColumn('derived', 'boolean', (col) => col.notNull())
    .addColumn('definition_version', 'text', (col) => col.notNull())
    .addColumn('retired_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index retired_item_values_of_subject on retired_item_values (subject_id, id)`.execute(db);
}
