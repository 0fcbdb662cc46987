import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 12: the dashboard and the subject-info popup add up the read model's facts per group of
  // subjects. Counting `subject_facts` costs a row per subject; these tables hold the sums per
  // group instead, so the figures cost the same at 500 subjects as at 5,000
  // (docs/decisions/subject-fact-totals.md).
  //
  // Append-only deltas: a trigger on `subject_facts` adds a row that takes a subject's old values
  // out of its old group and one that puts its new values into its new group. Writers only ever
  // INSERT here, so two saves never wait for each other on a total (a counter row updated in place
  // would make every save of a site queue behind the others). The true total of a group is the sum
  // of its rows; `compactSubjectFactTotals` folds them into one row per group now and then.
  await db.schema
    .createTable('subject_fact_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('randomized', 'boolean', (col) => col.notNull())
    .addColumn('gender', 'text')
    .addColumn('age_band', 'text', (col) => col.notNull())
    .addColumn('subjects', 'integer', (col) => col.notNull())
    .addColumn('adverse_events', 'integer', (col) => col.notNull())
    .addColumn('serious_adverse_events', 'integer', (col) => col.notNull())
    .addColumn('subjects_with_adverse_events', 'integer', (col) => col.notNull())
    .addColumn('subjects_with_serious_adverse_events', 'integer', (col) => col.notNull())
    .addColumn('open_queries', 'integer', (col) => col.notNull())
    .addColumn('answered_queries', 'integer', (col) => col.notNull())
    .addColumn('manual_open_queries', 'integer', (col) => col.notNull())
    .addColumn('manual_answered_queries', 'integer', (col) => col.notNull())
    .addColumn('saved_forms', 'integer', (col) => col.notNull())
    .addColumn('sdv_planned_forms', 'integer', (col) => col.notNull())
    .addColumn('sdv_complete_forms', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('subject_fact_totals_study_site_idx')
    .on('subject_fact_totals')
    .columns(['study_id', 'site_id'])
    .execute();
  // The monthly consent chart groups by another key (the month), so it has its own deltas.
  await db.schema
    .createTable('consent_month_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('consent_month', 'text', (col) => col.notNull())
    .addColumn('subjects', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('consent_month_totals_study_site_idx')
    .on('consent_month_totals')
    .columns(['study_id', 'site_id'])
    .execute();

  // The list sorted by randomization number (as monitors read it) takes its page from an index
  // instead of sorting every subject; ties go by screening number, as the list orders them.
  await sql`create index subject_facts_study_randomization_c_idx on subject_facts
    (study_id, randomization_number collate "C", screening_number collate "C", subject_id)`.execute(db);

  // Every change of a facts row, by whatever path (a save, a deletion, a rebuild), moves the totals
  // in the same transaction: they cannot drift from the rows they add up.
  await sql`
    create function subject_facts_move_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and (old.study_id, old.site_id, old.status, old.randomization_number is null, old.gender,
             old.age_band, old.adverse_event_count, old.serious_adverse_event_count,
             old.open_query_count, old.answered_query_count, old.manual_open_query_count,
             old.manual_answered_query_count, old.saved_form_count, old.sdv_planned_forms,
             old.sdv_complete_forms)
        is not distinct from
            (new.study_id, new.site_id, new.status, new.randomization_number is null, new.gender,
             new.age_band, new.adverse_event_count, new.serious_adverse_event_count,
             new.open_query_count, new.answered_query_count, new.manual_open_query_count,
             new.manual_answered_query_count, new.saved_form_count, new.sdv_planned_forms,
             new.sdv_complete_forms)
        and (old.consent_month = new.consent_month)
      then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        insert into subject_fact_totals values (
          old.study_id, old.site_id, old.status, old.randomization_number is not null, old.gender,
          old.age_band, -1, -old.adverse_event_count, -old.serious_adverse_event_count,
          -(old.adverse_event_count > 0)::int, -(old.serious_adverse_event_count > 0)::int,
          -old.open_query_count, -old.answered_query_count, -old.manual_open_query_count,
          -old.manual_answered_query_count, -old.saved_form_count, -old.sdv_planned_forms,
          -old.sdv_complete_forms);
        insert into consent_month_totals values (old.study_id, old.site_id, old.consent_month, -1);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into subject_fact_totals values (
          new.study_id, new.site_id, new.status, new.randomization_number is not null, new.gender,
          new.age_band, 1, new.adverse_event_count, new.serious_adverse_event_count,
          (new.adverse_event_count > 0)::int, (new.serious_adverse_event_count > 0)::int,
          new.open_query_count, new.answered_query_count, new.manual_open_query_count,
          new.manual_answered_query_count, new.saved_form_count, new.sdv_planned_forms,
          new.sdv_complete_forms);
        insert into consent_month_totals values (new.study_id, new.site_id, new.consent_month, 1);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger subject_facts_totals
    after insert or update or delete on subject_facts
    for each row execute function subject_facts_move_totals()`.execute(db);

  // The totals of the facts already stored, one row per group.
  await sql`
    insert into subject_fact_totals
    select study_id, site_id, status, randomization_number is not null, gender, age_band,
      count(*), sum(adverse_event_count), sum(serious_adverse_event_count),
      count(*) filter (where adverse_event_count > 0), count(*) filter (where serious_adverse_event_count > 0),
      sum(open_query_count), sum(answered_query_count), sum(manual_open_query_count),
      sum(manual_answered_query_count), sum(saved_form_count), sum(sdv_planned_forms), sum(sdv_complete_forms)
    from subject_facts
    group by study_id, site_id, status, randomization_number is not null, gender, age_band`.execute(db);
  await sql`
    insert into consent_month_totals
    select study_id, site_id, consent_month, count(*) from subject_facts
    group by study_id, site_id, consent_month`.execute(db);
}
