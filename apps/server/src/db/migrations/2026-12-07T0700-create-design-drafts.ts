import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 48 items 6 and 7: the designer's draft saved on the server as it goes. One draft per study;
  // `revision` grows with each save, and a save names the revision it was made on (two designers
  // never overwrite each other silently). `based_on_hash`: the published version it was started from.
  await db.schema
    .createTable('study_design_drafts')
    .addColumn('study_id', 'integer', (col) => col.primaryKey().references('studies.id'))
    .addColumn('revision', 'integer', (col) => col.notNull())
    .addColumn('definition', 'jsonb', (col) => col.notNull())
    .addColumn('based_on_hash', 'text')
    .addColumn('saved_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('saved_at', 'timestamptz', (col) => col.notNull())
    .execute();
  // Who saved each revision and what it changed, both languages (the designer's "changes" list).
  await db.schema
    .createTable('study_design_draft_changes')
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('revision', 'integer', (col) => col.notNull())
    .addColumn('saved_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('saved_at', 'timestamptz', (col) => col.notNull())
    .addColumn('lines', 'jsonb', (col) => col.notNull())
    .addColumn('line_count', 'integer')
    .addPrimaryKeyConstraint('study_design_draft_changes_pkey', ['study_id', 'revision'])
    .execute();
  // A review asked for on a revision of the draft; its approval is an e-signature on a revision and
  // its content hash. Closed when the draft is published or a new review is asked for.
  await db.schema
    .createTable('study_design_reviews')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('revision', 'integer', (col) => col.notNull())
    .addColumn('requested_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('requested_at', 'timestamptz', (col) => col.notNull())
    .addColumn('approved_by', 'integer', (col) => col.references('users.id'))
    .addColumn('approved_at', 'timestamptz')
    .addColumn('approved_revision', 'integer')
    .addColumn('approved_hash', 'text')
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await sql`create unique index study_design_reviews_one_open on study_design_reviews (study_id) where closed_at is null`.execute(
    db,
  );
  await db.schema
    .createTable('study_design_review_comments')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('review_id', 'integer', (col) => col.notNull().references('study_design_reviews.id'))
    .addColumn('element', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('revision', 'integer', (col) => col.notNull())
    .addColumn('author_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('study_design_review_comments_review')
    .on('study_design_review_comments')
    .column('review_id')
    .execute();
  // A study may ask for an approved review before its draft is published (off by default).
  await db.schema
    .alterTable('studies')
    .addColumn('design_approval_required', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}
