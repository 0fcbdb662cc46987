import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 46: the SDV progress by site added up every subject's facts row, and its list by subject
  // counted and sorted every subject in scope, on every request. These give both the cost of a
  // few rows per site whatever the trial's size (docs/decisions/subject-fact-totals.md).
  //
  // Per study and site: the subjects and their SDV counts, and how many subjects each of the list's
  // state filters keeps (complete, incomplete, changed) — the progress by site and the list's total
  // for a filter are sums of these. Append-only deltas written by a trigger on `subject_facts`,
  // folded by `compactSubjectFactTotals` like the other totals. A table of its own: its group is
  // the site alone, and a save that moves no SDV count (most of them) appends nothing here.
  await db.schema
    .createTable('sdv_site_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('subjects', 'integer', (col) => col.notNull())
    .addColumn('complete_subjects', 'integer', (col) => col.notNull())
    .addColumn('incomplete_subjects', 'integer', (col) => col.notNull())
    .addColumn('changed_subjects', 'integer', (col) => col.notNull())
    .addColumn('planned_items', 'integer', (col) => col.notNull())
    .addColumn('verified_items', 'integer', (col) => col.notNull())
    .addColumn('changed_items', 'integer', (col) => col.notNull())
    .addColumn('planned_forms', 'integer', (col) => col.notNull())
    .addColumn('complete_forms', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('sdv_site_totals_study_site_idx')
    .on('sdv_site_totals')
    .columns(['study_id', 'site_id'])
    .execute();
  // The state filters as the list writes them (sdv/sdv-progress.ts): complete when every planned
  // form is complete, incomplete when fewer are, changed when an item changed since verified.
  await sql`
    create function subject_facts_move_sdv_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and (old.study_id, old.site_id, old.sdv_planned_items, old.sdv_verified_items,
             old.sdv_changed_items, old.sdv_planned_forms, old.sdv_complete_forms)
        is not distinct from
            (new.study_id, new.site_id, new.sdv_planned_items, new.sdv_verified_items,
             new.sdv_changed_items, new.sdv_planned_forms, new.sdv_complete_forms)
      then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        insert into sdv_site_totals values (
          old.study_id, old.site_id, -1,
          -(old.sdv_complete_forms = old.sdv_planned_forms)::int,
          -(old.sdv_complete_forms < old.sdv_planned_forms)::int,
          -(old.sdv_changed_items > 0)::int,
          -old.sdv_planned_items, -old.sdv_verified_items, -old.sdv_changed_items,
          -old.sdv_planned_forms, -old.sdv_complete_forms);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into sdv_site_totals values (
          new.study_id, new.site_id, 1,
          (new.sdv_complete_forms = new.sdv_planned_forms)::int,
          (new.sdv_complete_forms < new.sdv_planned_forms)::int,
          (new.sdv_changed_items > 0)::int,
          new.sdv_planned_items, new.sdv_verified_items, new.sdv_changed_items,
          new.sdv_planned_forms, new.sdv_complete_forms);
      end if;
      return null;
    end
    $$`.execute(db);
  // Created before the fill: writers of `subject_facts` wait for this migration's commit, so no
  // change falls between the two.
  await sql`
    create trigger subject_facts_sdv_totals
    after insert or update or delete on subject_facts
    for each row execute function subject_facts_move_sdv_totals()`.execute(db);
  await sql`
    insert into sdv_site_totals
    select study_id, site_id, count(*),
      count(*) filter (where sdv_complete_forms = sdv_planned_forms),
      count(*) filter (where sdv_complete_forms < sdv_planned_forms),
      count(*) filter (where sdv_changed_items > 0),
      sum(sdv_planned_items), sum(sdv_verified_items), sum(sdv_changed_items),
      sum(sdv_planned_forms), sum(sdv_complete_forms)
    from subject_facts group by study_id, site_id`.execute(db);

  // The list by subject reads its page off an index in its ORDER BY (ties by screening number by
  // code point, then the subject), so the scan stops after the page. By screening number it has
  // `subject_facts_study_screening_c_idx`; by site `subject_facts_study_site_code_idx`. The percent
  // verified is the list's expression, written the same way so the planner matches it (nothing
  // planned counts as 100 %), for the monitor's view: the least verified first.
  await sql`create index subject_facts_study_sdv_percent_idx on subject_facts (study_id,
    (case when sdv_planned_items = 0 then 100 else (sdv_verified_items * 100) / sdv_planned_items end),
    screening_number collate "C", subject_id)`.execute(db);
  // The subjects with an item changed since verified are few: their own index in screening order
  // reads only them instead of skipping every other subject to fill a page.
  await sql`create index subject_facts_study_sdv_changed_idx on subject_facts
    (study_id, screening_number collate "C", subject_id) where sdv_changed_items > 0`.execute(db);
}
