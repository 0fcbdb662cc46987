import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 49 item 3: the last impact analysis of a draft amendment — what it read (the draft's revision
  // and a hash of the declarations and sites' dates, to tell when it is out of date), its counts, and its rows for the
  // drill-down, paged in id order (the analysis writes them in subject order).
  await db.schema
    .createTable('amendment_impacts')
    .addColumn('amendment_id', 'integer', (col) => col.primaryKey().references('study_amendments.id'))
    .addColumn('draft_revision', 'integer', (col) => col.notNull())
    .addColumn('inputs_hash', 'text', (col) => col.notNull())
    .addColumn('summary', 'jsonb', (col) => col.notNull())
    .addColumn('computed_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('computed_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('amendment_impact_rows')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('amendment_id', 'integer', (col) => col.notNull().references('study_amendments.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('screening_number', 'text', (col) => col.notNull())
    .addColumn('visit_key', 'text')
    .addColumn('form_key', 'text')
    .addColumn('item_key', 'text')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .execute();
  // The drill-down's filters (a kind, a site) and its order.
  await sql`create index amendment_impact_rows_by_kind on amendment_impact_rows (amendment_id, kind, id)`.execute(
    db,
  );
  await sql`create index amendment_impact_rows_by_site on amendment_impact_rows (amendment_id, site_id, id)`.execute(
    db,
  );
}
