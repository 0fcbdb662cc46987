import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 46: the reports worked out every row of the trial per request (sorted, then paged and
  // counted): their cost grew with the trial (× 3.2–8.3 from 500 to 5,000 subjects). Their rows are
  // now stored per subject, as the subject's other read-model rows are (read-model/report-rows.ts),
  // a listing's page read in its order from an index, every count from the totals below.
  await db.schema
    .createTable('report_rows')
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id').onDelete('cascade'))
    .addColumn('report', 'text', (col) => col.notNull())
    // The row within its subject and report (the event's number, the visit and form, the kind…).
    .addColumn('row_key', 'text', (col) => col.notNull())
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    // What a report counts by, beside the site: the visit (events of interest), the month
    // (enrollment), the day a query was opened or its days to an answer (query aging)…
    .addColumn('group_key', 'text', (col) => col.notNull())
    // What a report filters and counts by: seriousness, the deviation's kind, empty or incomplete.
    .addColumn('bucket', 'text', (col) => col.notNull())
    // A row that counts only from a date on (a form of a visit not done, once its window closed);
    // null: counts now.
    .addColumn('counts_from', 'date')
    // The report's order: a date first (missing forms: the oldest due first), then site, subject,
    // and the rest of the order as text.
    .addColumn('sort_date', 'date')
    .addColumn('site_code', 'text', (col) => col.notNull())
    .addColumn('screening_number', 'text', (col) => col.notNull())
    .addColumn('sort_rest', 'text', (col) => col.notNull())
    // What the report shows of the row beyond its subject and site.
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    // A number the report averages (a measure at the first and last visit): summed in the totals.
    .addColumn('value', 'float8')
    .addPrimaryKeyConstraint('report_rows_pk', ['subject_id', 'report', 'row_key'])
    .execute();
  // A page in the report's order, and a page of one bucket (serious events, one kind) likewise.
  await sql`
    create index report_rows_page_idx on report_rows
      (study_id, report, sort_date, site_code collate "C", screening_number collate "C", sort_rest collate "C")`.execute(
    db,
  );
  await sql`
    create index report_rows_bucket_page_idx on report_rows
      (study_id, report, bucket, sort_date, site_code collate "C", screening_number collate "C", sort_rest collate "C")`.execute(
    db,
  );

  // The counts of the rows per site, report, group, bucket and date they count from: append-only
  // deltas as the other totals (docs/decisions/subject-fact-totals.md), folded by the compaction.
  await db.schema
    .createTable('report_row_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('report', 'text', (col) => col.notNull())
    .addColumn('group_key', 'text', (col) => col.notNull())
    .addColumn('bucket', 'text', (col) => col.notNull())
    .addColumn('counts_from', 'date')
    .addColumn('rows', 'integer', (col) => col.notNull())
    // The rows' `value`s added up (0 where they have none): a mean without a row per value.
    .addColumn('value_sum', 'float8', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('report_row_totals_study_idx')
    .on('report_row_totals')
    .columns(['study_id', 'report'])
    .execute();
  await sql`
    create function report_rows_move_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and (old.study_id, old.site_id, old.report, old.group_key, old.bucket)
          = (new.study_id, new.site_id, new.report, new.group_key, new.bucket)
        and old.counts_from is not distinct from new.counts_from
        and old.value is not distinct from new.value
      then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        insert into report_row_totals
        values (old.study_id, old.site_id, old.report, old.group_key, old.bucket, old.counts_from, -1,
          -coalesce(old.value, 0));
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into report_row_totals
        values (new.study_id, new.site_id, new.report, new.group_key, new.bucket, new.counts_from, 1,
          coalesce(new.value, 0));
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger report_rows_totals
    after insert or update or delete on report_rows
    for each row execute function report_rows_move_totals()`.execute(db);
  // The rows are filled by the read model's rebuild at the next start (READ_MODEL_VERSION).
}
