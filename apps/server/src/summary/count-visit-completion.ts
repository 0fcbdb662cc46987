import type { VisitCompletionCounts } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportContext } from '../reports/report-context.ts';

interface CompletionRow {
  visit_key: string;
  site_id: number;
  in_window: number | string;
  out_of_window: number | string;
  overdue: number | string;
  not_yet_due: number | string;
}

export const noCompletion = (): VisitCompletionCounts => ({
  inWindow: 0,
  outOfWindow: 0,
  overdue: 0,
  notYetDue: 0,
});

/**
 * The visit completion matrix: per (visit, site), the subjects' visits from `subject_visit_windows`
 * (a row once the visit's window is known), counted by state in one GROUP BY. A visit not done counts
 * only for a subject still ongoing: overdue once the window has closed (today in UTC+9 after its last
 * day), not yet due while it is open or ahead. Keyed `visit|site`.
 */
export async function countVisitCompletion(
  db: Kysely<Database>,
  context: ReportContext,
): Promise<Map<string, VisitCompletionCounts>> {
  const today = sql`${context.today}::date`;
  const rows = await sql<CompletionRow>`
    select w.visit_key, w.site_id,
      count(*) filter (where w.actual_date between w.earliest_date and w.latest_date) as in_window,
      count(*) filter (where w.actual_date < w.earliest_date or w.actual_date > w.latest_date) as out_of_window,
      count(*) filter (where w.actual_date is null and w.subject_status = 'ongoing'
        and w.latest_date < ${today}) as overdue,
      count(*) filter (where w.actual_date is null and w.subject_status = 'ongoing'
        and w.latest_date >= ${today}) as not_yet_due
    from subject_visit_windows w
    where w.study_id = ${context.studyId} and w.site_id in (${sql.join(context.siteIds)})
    group by w.visit_key, w.site_id`.execute(db);
  return new Map(
    rows.rows.map((row) => [
      `${row.visit_key}|${Number(row.site_id)}`,
      {
        inWindow: Number(row.in_window),
        outOfWindow: Number(row.out_of_window),
        overdue: Number(row.overdue),
        notYetDue: Number(row.not_yet_due),
      },
    ]),
  );
}
