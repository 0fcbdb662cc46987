import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('studies')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull().defaultTo(''))
    // The menu sets the study offers (prototype-spec §3 "approaches"): PI and/or CRA.
    .addColumn('approaches', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{PI,CRA}'`))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('active').check(sql`status in ('active', 'ended')`),
    )
    .addColumn('registered_on', 'date', (col) => col.notNull().defaultTo(sql`current_date`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  // A site is an institution taking part in one study; its two-digit institution number is part of
  // screening and randomization numbers, so it is unique within the study.
  await db.schema
    .createTable('sites')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('institution_number', 'text', (col) =>
      col.notNull().check(sql`institution_number ~ '^[0-9]{2}$'`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sites_study_code_unique', ['study_id', 'code'])
    .addUniqueConstraint('sites_study_institution_unique', ['study_id', 'institution_number'])
    .execute();
}
