import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 50 item 4: a review listing's rows marked reviewed, one mark per form instance and listing
  // (a form's plain items and each of its repeating groups are listings of their own). The mark keeps
  // the form instance's version at review: a listing compares it with `form_instances.version` when it
  // reads, so a row whose data changed since reads "changed since review" and the save path does
  // nothing. Marking again replaces the mark (audited each time). Study, site and subject are repeated
  // from the form's subject so the listing's review filter joins the mark by its key alone.
  await db.schema
    .createTable('review_marks')
    .addColumn('form_instance_id', 'integer', (col) => col.notNull().references('form_instances.id'))
    .addColumn('listing', 'text', (col) => col.notNull())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('reviewed_version', 'integer', (col) => col.notNull())
    .addColumn('reviewed_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('reviewed_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('review_marks_pk', ['form_instance_id', 'listing'])
    .execute();
  await db.schema.createIndex('review_marks_subject_idx').on('review_marks').column('subject_id').execute();
  // The listing's default order (subject, then visit) and its "last saved" sort read a form's
  // instances with data in that order; the (form_key, subject_id) index serves the first.
  await sql`create index form_instances_form_saved_idx on form_instances (form_key, saved_at, id)
    where has_data`.execute(db);
}
