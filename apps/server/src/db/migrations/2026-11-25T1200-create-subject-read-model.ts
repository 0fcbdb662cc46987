import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The read model (src/read-model/): one row per subject with every fact the list, the download,
  // the dashboard and the subject-info popup show, kept current in the transaction of every write
  // that changes one, so read-outs filter, sort, count and page in SQL instead of recomputing the
  // facts of every subject from form data. Deleted subjects have no row.
  await db.schema
    .createTable('subject_facts')
    .addColumn('subject_id', 'integer', (col) => col.primaryKey().references('subjects.id'))
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('screening_number', 'text', (col) => col.notNull())
    .addColumn('initials', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('consent_date', 'date', (col) => col.notNull())
    // The Korean day (UTC+9) of registration: the list's "registration date".
    .addColumn('registered_on', 'date', (col) => col.notNull())
    .addColumn('randomization_number', 'text')
    .addColumn('randomized_at', 'timestamptz')
    .addColumn('gender', 'text')
    .addColumn('age', 'double precision')
    .addColumn('first_visit_key', 'text')
    .addColumn('first_visit_date', 'date')
    .addColumn('last_visit_key', 'text')
    .addColumn('last_visit_date', 'date')
    .addColumn('adverse_event_count', 'integer', (col) => col.notNull())
    .addColumn('serious_adverse_event_count', 'integer', (col) => col.notNull())
    .addColumn('open_query_count', 'integer', (col) => col.notNull())
    .addColumn('answered_query_count', 'integer', (col) => col.notNull())
    .addColumn('signature_state', 'text', (col) => col.notNull())
    .addColumn('screening_failure_reason', 'text')
    .addColumn('dropout_reason', 'text')
    .addColumn('saved_form_count', 'integer', (col) => col.notNull())
    .execute();
  // The list's default order and the scope filter; the other sorts order the (study, sites) rows.
  await db.schema
    .createIndex('subject_facts_study_screening_idx')
    .on('subject_facts')
    .columns(['study_id', 'screening_number'])
    .execute();
  await db.schema
    .createIndex('subject_facts_study_site_status_idx')
    .on('subject_facts')
    .columns(['study_id', 'site_id', 'status'])
    .execute();
  await db.schema
    .createIndex('subject_facts_study_registered_idx')
    .on('subject_facts')
    .columns(['study_id', 'registered_on'])
    .execute();
  await db.schema
    .createIndex('subject_facts_study_consent_idx')
    .on('subject_facts')
    .columns(['study_id', 'consent_date'])
    .execute();

  // Each scheduled visit of a subject that has a window and an anchor date: its window, and the
  // actual date once done. The alarms (overdue, due, due soon, out of window) are these rows
  // compared with today, in SQL; only rows that can raise an alarm are indexed.
  await db.schema
    .createTable('subject_visit_windows')
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    // The visit's place in the definition (alarms of one subject list in visit order).
    .addColumn('visit_order', 'integer', (col) => col.notNull())
    // The subject's status, copied: only visits of subjects in follow-up can be due or overdue.
    .addColumn('subject_status', 'text', (col) => col.notNull())
    .addColumn('actual_date', 'date')
    .addColumn('expected_date', 'date', (col) => col.notNull())
    .addColumn('earliest_date', 'date', (col) => col.notNull())
    .addColumn('latest_date', 'date', (col) => col.notNull())
    .addPrimaryKeyConstraint('subject_visit_windows_pk', ['subject_id', 'visit_key'])
    .execute();
  await sql`
    create index subject_visit_windows_pending_idx on subject_visit_windows (study_id, earliest_date)
    where actual_date is null and subject_status = 'ongoing'`.execute(db);
  await sql`
    create index subject_visit_windows_deviation_idx on subject_visit_windows (study_id, site_id)
    where actual_date < earliest_date or actual_date > latest_date`.execute(db);

  // The dashboard's and the popup's unresolved-query counts per study and site.
  await sql`
    create index queries_unresolved_idx on queries (study_id, site_id)
    where status in ('open', 'answered')`.execute(db);
}
