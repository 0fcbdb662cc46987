import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 51 item 1: the SAE fast path. One report per serious adverse event — the event is the row
  // (1-based, `event_number`) of the `adverseEvents` role's repeating group on the subject's form —
  // started by the save that answers the event serious. Its 24-hour clock runs from `awareness_at`;
  // `due_at` is kept beside it so lists filter and sort overdue reports from an index. `row_version`
  // is the report's optimistic lock; `current_version` the version the site writes or last submitted.
  await db.schema
    .createTable('sae_reports')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('event_number', 'integer', (col) => col.notNull())
    .addColumn('term', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('draft').check(sql`status in ('draft', 'submitted', 'acknowledged')`),
    )
    .addColumn('awareness_at', 'timestamptz', (col) => col.notNull())
    .addColumn('due_at', 'timestamptz', (col) => col.notNull())
    .addColumn('current_version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('row_version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('first_submitted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sae_reports_one_per_event', ['subject_id', 'visit_key', 'form_key', 'event_number'])
    .execute();
  await db.schema
    .createIndex('sae_reports_study_due_idx')
    .on('sae_reports')
    .columns(['study_id', 'due_at', 'id'])
    .execute();
  await db.schema
    .createTable('sae_report_versions')
    .addColumn('report_id', 'integer', (col) => col.notNull().references('sae_reports.id'))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('content', 'jsonb', (col) => col.notNull())
    .addColumn('saved_by', 'integer', (col) => col.references('users.id'))
    .addColumn('saved_at', 'timestamptz', (col) => col.notNull())
    .addColumn('submitted_by', 'integer', (col) => col.references('users.id'))
    .addColumn('submitted_name', 'text')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('signature_meaning', 'jsonb')
    .addColumn('acknowledged_by', 'integer', (col) => col.references('users.id'))
    .addColumn('acknowledged_name', 'text')
    .addColumn('acknowledged_at', 'timestamptz')
    .addPrimaryKeyConstraint('sae_report_versions_pk', ['report_id', 'version'])
    .execute();
}
