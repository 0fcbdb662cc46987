import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 46: the readiness board (holds/readiness-board.ts) worked out every subject's blockers per
  // request — forms missing required items from `form_instances`, overdue visits from the windows —
  // then counted and sorted them all, ×4.2 from 500 to 5,000 subjects. The read model now stores
  // per subject what does not depend on today:
  //   forms_missing_required  saved forms whose status is 'dash' (the overview's dash);
  //   overdue_from            the first day a visit still to be done in follow-up is overdue (the
  //                           earliest, over those windows, of the later of the window's opening
  //                           and the day after its closing); null when none. A subject has
  //                           overdue visits on `today` exactly when overdue_from <= today.
  await db.schema
    .alterTable('subject_facts')
    .addColumn('forms_missing_required', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('overdue_from', 'date')
    .execute();

  // A page of the board comes off an index in its order (ties by screening number by code point,
  // then id), the scan stopping after it: most open queries first (the board's usual question)…
  await sql`create index subject_facts_study_open_queries_idx on subject_facts
    (study_id, open_query_count desc, screening_number collate "C", subject_id)`.execute(db);
  // …and, for the "ready" filter, only the subjects nothing stored holds back (signed, no query,
  // no form missing items, SDV complete), in screening-number order; whether a visit is overdue
  // today is checked on these few rows.
  await sql`create index subject_facts_study_lock_clear_idx on subject_facts
    (study_id, screening_number collate "C", subject_id)
    where open_query_count = 0 and answered_query_count = 0 and forms_missing_required = 0
      and sdv_planned_forms = sdv_complete_forms and signature_state = 'signed'`.execute(db);

  // The board's per-site figures that `subject_fact_totals`, `subject_list_totals` and
  // `visit_alarm_totals` do not hold: subjects per site, whether nothing stored holds them back
  // (`lock_clear`) with, for those, the day a visit becomes overdue (so "ready today" is a sum of
  // the groups whose date is after today), and whether their signature was invalidated; with the
  // forms missing required items. Append-only deltas like the others
  // (docs/decisions/subject-fact-totals.md), folded by the same compaction.
  await db.schema
    .createTable('readiness_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('lock_clear', 'boolean', (col) => col.notNull())
    .addColumn('invalidated', 'boolean', (col) => col.notNull())
    // Only for `lock_clear` subjects (null otherwise): the others are not ready whatever the day.
    .addColumn('overdue_from', 'date')
    .addColumn('subjects', 'integer', (col) => col.notNull())
    .addColumn('forms_missing_required', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('readiness_totals_study_site_idx')
    .on('readiness_totals')
    .columns(['study_id', 'site_id'])
    .execute();
  const lockClear = (row: string) =>
    sql.raw(`(${row}.open_query_count = 0 and ${row}.answered_query_count = 0
      and ${row}.forms_missing_required = 0 and ${row}.sdv_planned_forms = ${row}.sdv_complete_forms
      and ${row}.signature_state = 'signed')`);
  const totalsRow = (row: string, sign: 1 | -1) => sql`
    insert into readiness_totals
      (study_id, site_id, lock_clear, invalidated, overdue_from, subjects, forms_missing_required)
    values (${sql.raw(`${row}.study_id, ${row}.site_id`)}, ${lockClear(row)},
      ${sql.raw(`${row}.signature_state = 'invalidated'`)},
      case when ${lockClear(row)} then ${sql.raw(`${row}.overdue_from`)} end,
      ${sql.lit(sign)}, ${sql.lit(sign)} * ${sql.raw(`${row}.forms_missing_required`)});`;
  // A trigger of its own: most changes of a facts row (a form saved, a query opened on a subject
  // already held back) move none of its keys or sums, and it returns before writing anything.
  await sql`
    create function subject_facts_move_readiness_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and (old.study_id, old.site_id, ${lockClear('old')}, old.signature_state = 'invalidated',
          old.forms_missing_required, case when ${lockClear('old')} then old.overdue_from end)
        is not distinct from (new.study_id, new.site_id, ${lockClear('new')},
          new.signature_state = 'invalidated', new.forms_missing_required,
          case when ${lockClear('new')} then new.overdue_from end)
      then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        ${totalsRow('old', -1)}
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${totalsRow('new', 1)}
      end if;
      return null;
    end
    $$`.execute(db);
  // Created before the fill below: writers of `subject_facts` wait for this migration's commit, so
  // no change falls between the fill and the trigger.
  await sql`
    create trigger subject_facts_readiness_totals
    after insert or update or delete on subject_facts
    for each row execute function subject_facts_move_readiness_totals()`.execute(db);
  // The new columns from the rows they summarise (the read model's rebuild computes the same from
  // the facts), then the totals of the rows stored — the trigger moves them as the fill updates
  // the rows, so the totals are filled from the rows left as they were before it: none.
  await sql`
    insert into readiness_totals
      (study_id, site_id, lock_clear, invalidated, overdue_from, subjects, forms_missing_required)
    select study_id, site_id, ${lockClear('f')}, signature_state = 'invalidated',
      null, count(*), 0
    from subject_facts f
    group by 1, 2, 3, 4`.execute(db);
  await sql`
    update subject_facts f set
      forms_missing_required = (select count(*) from form_instances fi
        where fi.subject_id = f.subject_id and fi.has_data and fi.status = 'dash'),
      overdue_from = (select min(greatest(w.earliest_date, w.latest_date + 1)) from subject_visit_windows w
        where w.subject_id = f.subject_id and w.actual_date is null and w.subject_status = 'ongoing')`.execute(
    db,
  );
}
