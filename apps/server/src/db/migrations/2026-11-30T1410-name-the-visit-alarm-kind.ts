import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Which count of `visit_alarm_totals` a window belongs to (migration 2026-11-30T1200): written
  // once here instead of once for the old row and once for the new in the trigger.
  //   outOfWindow  done outside its dates (a deviation, whatever today is);
  //   pending      not done, of a subject in follow-up (overdue, due or due soon by today's date);
  //   null         neither.
  // `immutable`: the answer depends on the arguments alone, so PostgreSQL may inline it.
  await sql`
    create function visit_alarm_kind(actual_date date, earliest_date date, latest_date date, subject_status text)
    returns text language sql immutable as $$
      select case
        when actual_date < earliest_date or actual_date > latest_date then 'outOfWindow'
        when actual_date is null and subject_status = 'ongoing' then 'pending'
      end
    $$`.execute(db);
  await sql`
    create or replace function subject_visit_windows_move_alarm_totals() returns trigger language plpgsql as $$
    declare
      old_kind text;
      new_kind text;
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        old_kind := visit_alarm_kind(old.actual_date, old.earliest_date, old.latest_date, old.subject_status);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        new_kind := visit_alarm_kind(new.actual_date, new.earliest_date, new.latest_date, new.subject_status);
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
}
