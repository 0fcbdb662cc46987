import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 49: an amendment of a live study — its number, reason and declarations (renames, code
  // mappings, conversions, replacements) beside the study's design draft, which holds the next
  // version while it is drafted. One draft at a time per study; a number is used once (a discarded
  // amendment keeps its row for the record and frees its number).
  await db.schema
    .createTable('study_amendments')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('number', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('draft').check(sql`status in ('draft', 'published', 'discarded')`),
    )
    .addColumn('declarations', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('from_version', 'text', (col) => col.notNull())
    .addColumn('to_version', 'text')
    .addColumn('content_hash', 'text')
    .addColumn('opened_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('opened_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('published_by', 'integer', (col) => col.references('users.id'))
    .addColumn('published_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await sql`create unique index study_amendments_one_draft on study_amendments (study_id) where status = 'draft'`.execute(
    db,
  );
  await sql`create unique index study_amendments_number on study_amendments (study_id, lower(number)) where status <> 'discarded'`.execute(
    db,
  );
  // Per site, the day its ethics approval of the amendment takes effect (null: not approved yet).
  await db.schema
    .createTable('study_amendment_sites')
    .addColumn('amendment_id', 'integer', (col) => col.notNull().references('study_amendments.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('effective_on', 'date')
    .addPrimaryKeyConstraint('study_amendment_sites_pkey', ['amendment_id', 'site_id'])
    .execute();
}
