import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The read model's totals (`subject_fact_totals`, `consent_month_totals`, `visit_alarm_totals`,
 * `subject_list_totals`, `report_row_totals`, `sdv_site_totals`, `readiness_totals`, `query_list_totals`):
 * sums of the facts per group of subjects, of the visit windows that raise alarms and of the queries,
 * which the dashboard, the subject-info popup, the alarm list, the SDV progress, the readiness board and
 * the subject and query lists' pagers read instead of every subject's, window's or query's row
 * (docs/decisions/subject-fact-totals.md).
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
 * Folds each group's delta rows into one row (groups that sum to no subject disappear). Only groups
 * with more than one row are rewritten: a group already folded stays as it is, so a run with nothing
 * to fold writes nothing. Rewriting every row every time made each run's work, and the dead rows it
 * leaves to vacuum, grow with the number of groups of every study on the server — at 20 studies of
 * 20 sites, some 10,000 rows every 10 s, which slowed one study's dashboard by half on the embedded
 * database (bench `--many-studies`, docs/PERFORMANCE.md).
 *
 * Safe beside writers and beside another process compacting: the DELETE takes only rows this
 * statement sees, a row another compaction already took is skipped, and rows committed meanwhile
 * stay for the next run — every row is counted exactly once, before and after.
 */
export async function compactSubjectFactTotals(db: Kysely<Database>): Promise<void> {
  await foldGroups(db, {
    table: 'subject_fact_totals',
    keys: ['study_id', 'site_id', 'status', 'randomized', 'gender', 'age_band'],
    sums: [
      'subjects',
      'adverse_events',
      'serious_adverse_events',
      'subjects_with_adverse_events',
      'subjects_with_serious_adverse_events',
      'open_queries',
      'answered_queries',
      'manual_open_queries',
      'manual_answered_queries',
      'saved_forms',
      'sdv_planned_forms',
      'sdv_complete_forms',
    ],
  });
  await foldGroups(db, {
    table: 'consent_month_totals',
    keys: ['study_id', 'site_id', 'consent_month'],
    sums: ['subjects'],
  });
  await foldGroups(db, {
    table: 'visit_alarm_totals',
    keys: ['study_id', 'site_id', 'kind', 'earliest_date', 'latest_date'],
    sums: ['windows'],
  });
  await foldGroups(db, {
    table: 'report_row_totals',
    keys: ['study_id', 'site_id', 'report', 'group_key', 'bucket', 'counts_from'],
    sums: ['rows', 'value_sum'],
  });
  await foldGroups(db, {
    table: 'subject_list_totals',
    keys: ['study_id', 'site_id', 'status', 'signed'],
    sums: ['subjects'],
  });
  await foldGroups(db, {
    table: 'sdv_site_totals',
    keys: ['study_id', 'site_id'],
    sums: [
      'subjects',
      'complete_subjects',
      'incomplete_subjects',
      'changed_subjects',
      'planned_items',
      'verified_items',
      'changed_items',
      'planned_forms',
      'complete_forms',
    ],
  });
  await foldGroups(db, {
    table: 'readiness_totals',
    keys: ['study_id', 'site_id', 'lock_clear', 'invalidated', 'overdue_from'],
    sums: ['subjects', 'forms_missing_required'],
  });
  await foldGroups(db, {
    table: 'query_list_totals',
    keys: ['study_id', 'site_id', 'status', 'kind', 'assignee'],
    sums: ['queries'],
  });
}

/**
 * One table's groups of more than one row, each replaced by one row of its sums; a group whose first
 * sum (its subjects or windows) comes to 0 is dropped. The rows to fold are found by their `ctid`
 * (the row's place in the table: these tables are only ever inserted into and deleted from, so it
 * stays put during the statement) from a count per group over the table — a window partition, which
 * groups null keys (a gender not entered, an out-of-window row's dates) as GROUP BY does.
 */
async function foldGroups(
  db: Kysely<Database>,
  fold: { table: string; keys: string[]; sums: string[] },
): Promise<void> {
  const table = sql.table(fold.table);
  const keys = sql.join(fold.keys.map((key) => sql.ref(key)));
  const sumColumns = sql.join(fold.sums.map((column) => sql.ref(column)));
  const sums = sql.join(fold.sums.map((column) => sql`sum(${sql.ref(column)})`));
  const counted = sql.ref(fold.sums[0] as string);
  await sql`
    with gone as (
      delete from ${table} where ctid in (
        select ctid from (select ctid, count(*) over (partition by ${keys}) as group_rows from ${table}) grouped
        where group_rows > 1)
      returning *
    )
    insert into ${table} (${keys}, ${sumColumns})
    select ${keys}, ${sums} from gone
    group by ${keys}
    having sum(${counted}) <> 0`.execute(db);
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
