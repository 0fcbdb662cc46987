import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 17 item 5 on issue 12's read model: one row per scheduled visit of each subject (the visits
  // whose forms include the visit-date form), with what the missing-forms and protocol-deviations
  // reports need of it, kept current with the subject's other rows. Without it both reports found the
  // visit dates and form states by joining every visit's forms and item values of the trial per request
  // (1.3 s and 0.3 s at 5,000 subjects); with it they read ~6 rows per subject.
  // (READ_MODEL_VERSION 5 fills it at the next start.)
  await db.schema
    .createTable('subject_visits')
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    // The visit date saved (the visit is done), as the visit-date item holds it; null until then.
    .addColumn('visit_date', 'date')
    // The last day of the visit's window once its anchor visit is done (subject_visit_windows'
    // latest_date): a visit not done by then is overdue.
    .addColumn('window_closes', 'date')
    // The visit's forms (definition order) not saved, and saved with required items missing.
    .addColumn('empty_forms', sql`text[]`, (col) => col.notNull())
    .addColumn('incomplete_forms', sql`text[]`, (col) => col.notNull())
    // Protocol deviations found at this visit (null: none): the criteria failing while the
    // eligibility evaluation says "eligible" (keys joined by ", ")…
    .addColumn('eligible_failing_criteria', 'text')
    // …the device application date when it differs from the visit date…
    .addColumn('device_applied_on', 'date')
    // …and for a woman at a visit with a pregnancy test, 'notRecorded' (childbearing potential not
    // recorded) or 'noResult' (of childbearing potential, no result).
    .addColumn('pregnancy_test_missing', 'text')
    .addPrimaryKeyConstraint('subject_visits_pk', ['subject_id', 'visit_key'])
    .execute();
}
