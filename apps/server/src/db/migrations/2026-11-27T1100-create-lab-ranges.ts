import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 17: laboratory normal ranges per site and lab test, optionally per sex and age band, in force
  // from a date. Retired rather than deleted: a flag once shown must stay explainable.
  await db.schema
    .createTable('lab_ranges')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('test_key', 'text', (col) => col.notNull())
    .addColumn('unit', 'text', (col) => col.notNull())
    .addColumn('low', 'double precision')
    .addColumn('high', 'double precision')
    .addColumn('sex', 'text', (col) => col.check(sql`sex in ('M', 'F')`))
    .addColumn('age_min', 'integer')
    .addColumn('age_max', 'integer')
    .addColumn('effective_from', 'date', (col) => col.notNull())
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .addCheckConstraint('lab_ranges_has_limit', sql`low is not null or high is not null`)
    .addCheckConstraint('lab_ranges_low_not_above_high', sql`low is null or high is null or low <= high`)
    .addCheckConstraint('lab_ranges_age_band', sql`age_min is null or age_max is null or age_min <= age_max`)
    .execute();
  // The form's save and read look up a site's ranges of the tests in force on a date.
  await db.schema
    .createIndex('lab_ranges_site_test_idx')
    .on('lab_ranges')
    .columns(['site_id', 'test_key', 'effective_from'])
    .execute();
}
