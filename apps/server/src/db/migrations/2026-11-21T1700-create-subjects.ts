import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subjects')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('screening_number', 'text', (col) => col.notNull())
    .addColumn('initials', 'text', (col) => col.notNull())
    .addColumn('consent_date', 'date', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('screening')
        .check(sql`status in ('screening', 'screening_failure', 'ongoing', 'complete', 'dropout')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('deleted_at', 'timestamptz')
    .addUniqueConstraint('subjects_study_screening_number_unique', ['study_id', 'screening_number'])
    .execute();
  await db.schema
    .createIndex('subjects_study_site_idx')
    .on('subjects')
    .columns(['study_id', 'site_id'])
    .execute();

  // The last screening number given out per site: the row lock of an UPDATE makes concurrent
  // registrations take consecutive numbers, on every server process.
  await db.schema
    .createTable('subject_number_counters')
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('last_number', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('subject_number_counters_pk', ['study_id', 'site_id'])
    .execute();
}
