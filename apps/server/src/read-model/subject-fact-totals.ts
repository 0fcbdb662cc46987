import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The read model's totals (`subject_fact_totals`, `consent_month_totals`, `visit_alarm_totals`,
 * `subject_list_totals`): sums of the facts per group of subjects, and of the visit windows that
 * raise alarms, which the dashboard, the subject-info popup, the alarm list and the subject list's
 * pager read instead of every subject's or window's row (docs/decisions/subject-fact-totals.md).
 *
 * Triggers on `subject_facts` and `subject_visit_windows` append a delta row for every change (the
 * old values out, the new in), so a group's total is always the sum of its rows, in every
 * transaction's view. Writers only insert: no save waits for another on a total. Left alone, the
 * deltas would pile up and reading the totals would grow with the number of writes; compacting
 * folds each group's rows into one.
 */

/** How often each server process folds the deltas: a few thousand rows at most pile up in between. */
export const COMPACTION_INTERVAL_MS = 10_000;

/**
 * Folds every group's delta rows into one row (groups that sum to no subject disappear). Safe
 * beside writers and beside another process compacting: the DELETE takes only rows this statement
 * sees, a row another compaction already took is skipped, and rows committed meanwhile stay for the
 * next run — every row is counted exactly once, before and after.
 */
export async function compactSubjectFactTotals(db: Kysely<Database>): Promise<void> {
  await sql`
    with gone as (delete from subject_fact_totals returning *)
    insert into subject_fact_totals
    select study_id, site_id, status, randomized, gender, age_band, sum(subjects), sum(adverse_events),
      sum(serious_adverse_events), sum(subjects_with_adverse_events), sum(subjects_with_serious_adverse_events),
      sum(open_queries), sum(answered_queries), sum(manual_open_queries), sum(manual_answered_queries),
      sum(saved_forms), sum(sdv_planned_forms), sum(sdv_complete_forms)
    from gone
    group by study_id, site_id, status, randomized, gender, age_band
    having sum(subjects) <> 0`.execute(db);
  await sql`
    with gone as (delete from consent_month_totals returning *)
    insert into consent_month_totals
    select study_id, site_id, consent_month, sum(subjects) from gone
    group by study_id, site_id, consent_month
    having sum(subjects) <> 0`.execute(db);
  await sql`
    with gone as (delete from visit_alarm_totals returning *)
    insert into visit_alarm_totals
    select study_id, site_id, kind, earliest_date, latest_date, sum(windows) from gone
    group by study_id, site_id, kind, earliest_date, latest_date
    having sum(windows) <> 0`.execute(db);
  await sql`
    with gone as (delete from subject_list_totals returning *)
    insert into subject_list_totals (study_id, site_id, status, signed, subjects)
    select study_id, site_id, status, signed, sum(subjects) from gone
    group by study_id, site_id, status, signed
    having sum(subjects) <> 0`.execute(db);
}

/**
 * Compacts the totals every `COMPACTION_INTERVAL_MS` until stopped (the server's lifetime); `stop`
 * waits for a run in progress, so the database is not closed under it.
 */
export function scheduleSubjectFactTotalsCompaction(
  db: Kysely<Database>,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    // A slow run (a busy database) is not overtaken by the next one.
    if (running) return;
    running = compactSubjectFactTotals(db)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, COMPACTION_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
