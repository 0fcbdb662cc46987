import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // What the alarm list sorts by and the dashboard groups by, stored in the read model instead of
  // computed per row at every request: the alarm page sorts the window rows alone and joins the
  // subject only for the rows it shows, and the dashboard groups by plain columns instead of an age
  // band CASE and a to_char per subject. (READ_MODEL_VERSION 3 fills them at the next start.)
  await db.schema
    .alterTable('subject_visit_windows')
    .addColumn('screening_number', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('subject_facts')
    .addColumn('age_band', 'text', (col) => col.notNull().defaultTo('notEntered'))
    .addColumn('consent_month', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
}
