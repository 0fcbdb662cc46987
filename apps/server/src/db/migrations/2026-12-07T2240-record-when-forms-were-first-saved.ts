import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 50: central monitoring's data-entry lag (visit date → the form's first save) needs when a
  // form was first saved; the row keeps only its last save. Forms saved before this migration take
  // their first value-change record's time from the audit trail, or their last save when the trail
  // has none for them.
  await db.schema
    .alterTable('form_instances')
    .addColumn('first_saved_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update form_instances fi set first_saved_at = least(fi.saved_at, coalesce((
      select min(a.occurred_at) from audit_events a
      where a.subject_id = fi.subject_id and a.event_type = 'data.item_changed'
        and a.entity_id like fi.visit_key || '.' || fi.form_key || '.%'
    ), fi.saved_at))`.execute(db);
}
