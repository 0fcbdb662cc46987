import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 16's per-form tables read one form's instances across the trial in pages keyed on the
  // subject: this index finds a page's boundary and its instances without scanning other forms.
  await sql`create index form_instances_form_subject_idx on form_instances (form_key, subject_id)
    where has_data`.execute(db);
}
