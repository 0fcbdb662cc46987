import { type SubjectStatus, type SummaryStatusCounts, subjectStatuses } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportContext } from '../reports/report-context.ts';

export const noStatuses = (): SummaryStatusCounts =>
  Object.fromEntries(subjectStatuses.map((status) => [status, 0])) as SummaryStatusCounts;

/**
 * Subjects per site and status, from the read model's totals (`subject_fact_totals`, the
 * dashboard's): a few rows per site whatever the trial's size.
 */
export async function countSubjectStatuses(
  db: Kysely<Database>,
  context: ReportContext,
): Promise<Map<number, SummaryStatusCounts>> {
  const rows = await sql<{ site_id: number; status: SubjectStatus; count: number }>`
    select site_id, status, sum(subjects)::int as count from subject_fact_totals
    where study_id = ${context.studyId} and site_id in (${sql.join(context.siteIds)})
    group by site_id, status having sum(subjects) <> 0`.execute(db);
  const bySite = new Map<number, SummaryStatusCounts>(context.siteIds.map((id) => [id, noStatuses()]));
  for (const row of rows.rows) {
    const counts = bySite.get(Number(row.site_id));
    if (counts && row.status in counts) counts[row.status] = Number(row.count);
  }
  return bySite;
}
