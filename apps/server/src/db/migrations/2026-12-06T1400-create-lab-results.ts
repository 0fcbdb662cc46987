import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 43 item 13 on issue 12's read model: one row per numeric lab result saved (a labTest form's
  // `<test>Result`), with the range in force on its specimen date and its flag stored — set by the
  // save, and again when a range of its site and test is added, changed or retired, in that
  // transaction. Without it the lab page scanned every item value of the trial twice per request
  // (count and page), joined the normal and significance items by a computed key and chose a range
  // per row: 2.5–9 s at 5,000 subjects for an empty page.
  // (READ_MODEL_VERSION 8 fills it at the next start, like every read-model table.)
  await db.schema
    .createTable('lab_results')
    .addColumn('form_instance_id', 'integer', (col) => col.notNull().references('form_instances.id'))
    .addColumn('test_key', 'text', (col) => col.notNull())
    // The result's item (`<test>Result`): the path the result's queries are raised on.
    .addColumn('result_item', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    // The listing's sort keys, stored so an index can give its order: the site's code (kept on a
    // rename, as `subject_facts.site_code`), the screening number, the visit, the test's place in
    // the form (a new definition version rebuilds).
    .addColumn('site_code', 'text', (col) => col.notNull())
    .addColumn('screening_number', 'text', (col) => col.notNull())
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('test_order', 'integer', (col) => col.notNull())
    // The specimen date as saved (the range in force on it applies; null: none chosen).
    .addColumn('specimen_date', 'text')
    .addColumn('value', 'double precision', (col) => col.notNull())
    // The subject's sex and age the range was chosen for: a range change re-flags from these.
    .addColumn('sex', 'text')
    .addColumn('age', 'double precision')
    // The applied range's unit and limits, and the flag against it (null: no range in force).
    .addColumn('unit', 'text')
    .addColumn('low', 'double precision')
    .addColumn('high', 'double precision')
    .addColumn('flag', 'text', (col) => col.check(sql`flag in ('H', 'L', 'N')`))
    .addColumn('normal', 'text')
    .addColumn('significance', 'text')
    .addPrimaryKeyConstraint('lab_results_pk', ['form_instance_id', 'test_key'])
    .execute();
}
