import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 12: the dashboard, the subject-info popup and the alarm list count visit alarms. Counting
  // the alarm rows of `subject_visit_windows` costs a row per alarm, which grows with the trial.
  // These deltas hold the same counts per group instead (docs/decisions/subject-fact-totals.md):
  //
  //   outOfWindow  windows done outside their dates, per site (a deviation stays one whatever today is);
  //   pending      windows not done of subjects in follow-up, per site and window dates. Whether such a
  //                window is overdue, due or due soon depends on today, so the state is worked out
  //                at read time from the dates; the number of date pairs grows with the calendar,
  //                not with the number of subjects.
  //
  // As with `subject_fact_totals`, writers only append: a trigger adds a row taking a window's old
  // contribution out and one putting its new one in; compaction folds the rows per group.
  await db.schema
    .createTable('visit_alarm_totals')
    .addColumn('study_id', 'integer', (col) => col.notNull())
    .addColumn('site_id', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    // The window's dates for `pending` rows; null for `outOfWindow`.
    .addColumn('earliest_date', 'date')
    .addColumn('latest_date', 'date')
    .addColumn('windows', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('visit_alarm_totals_study_idx')
    .on('visit_alarm_totals')
    .columns(['study_id', 'kind', 'earliest_date'])
    .execute();

  // The alarm list's page, per state, from an index in list order instead of sorting every alarm:
  // overdue and due by closing date, due soon by opening date, deviations the latest first.
  await sql`
    create index subject_visit_windows_pending_latest_idx on subject_visit_windows
      (study_id, latest_date, screening_number collate "C", visit_order)
    where actual_date is null and subject_status = 'ongoing'`.execute(db);
  await sql`
    create index subject_visit_windows_pending_earliest_idx on subject_visit_windows
      (study_id, earliest_date, screening_number collate "C", visit_order)
    where actual_date is null and subject_status = 'ongoing'`.execute(db);
  await sql`drop index subject_visit_windows_pending_idx`.execute(db);
  await sql`
    create index subject_visit_windows_deviation_order_idx on subject_visit_windows
      (study_id, actual_date desc, screening_number collate "C", visit_order)
    where actual_date < earliest_date or actual_date > latest_date`.execute(db);

  // Every change of a window row, by whatever path, moves the counts in the same transaction.
  await sql`
    create function subject_visit_windows_move_alarm_totals() returns trigger language plpgsql as $$
    declare
      old_kind text;
      new_kind text;
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        old_kind := case
          when old.actual_date < old.earliest_date or old.actual_date > old.latest_date then 'outOfWindow'
          when old.actual_date is null and old.subject_status = 'ongoing' then 'pending'
        end;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        new_kind := case
          when new.actual_date < new.earliest_date or new.actual_date > new.latest_date then 'outOfWindow'
          when new.actual_date is null and new.subject_status = 'ongoing' then 'pending'
        end;
      end if;
      if tg_op = 'UPDATE' and old_kind is not distinct from new_kind
        and (old.study_id, old.site_id) = (new.study_id, new.site_id)
        and (old_kind is distinct from 'pending'
             or (old.earliest_date, old.latest_date) = (new.earliest_date, new.latest_date))
      then
        return null;
      end if;
      if old_kind is not null then
        insert into visit_alarm_totals values (old.study_id, old.site_id, old_kind,
          case when old_kind = 'pending' then old.earliest_date end,
          case when old_kind = 'pending' then old.latest_date end, -1);
      end if;
      if new_kind is not null then
        insert into visit_alarm_totals values (new.study_id, new.site_id, new_kind,
          case when new_kind = 'pending' then new.earliest_date end,
          case when new_kind = 'pending' then new.latest_date end, 1);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger subject_visit_windows_alarm_totals
    after insert or update or delete on subject_visit_windows
    for each row execute function subject_visit_windows_move_alarm_totals()`.execute(db);

  // The counts of the windows already stored, one row per group.
  await sql`
    insert into visit_alarm_totals
    select study_id, site_id, 'outOfWindow', null, null, count(*) from subject_visit_windows
    where actual_date < earliest_date or actual_date > latest_date
    group by study_id, site_id`.execute(db);
  await sql`
    insert into visit_alarm_totals
    select study_id, site_id, 'pending', earliest_date, latest_date, count(*) from subject_visit_windows
    where actual_date is null and subject_status = 'ongoing'
    group by study_id, site_id, earliest_date, latest_date`.execute(db);
}
