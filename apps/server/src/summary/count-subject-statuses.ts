import type { StatusCounts, SubjectStatus } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { emptyStatusCounts } from '../read-model/dashboard-figures.ts';
import type { ReportContext } from '../reports/report-context.ts';

/**
 * Subjects per site and status, from the read model's totals (`subject_fact_totals`, the
 * dashboard's): a few rows per site whatever the trial's size.
 */
export async function countSubjectStatuses(
  db: Kysely<Database>,
  context: ReportContext,
): Promise<Map<number, StatusCounts>> {
  const rows = await sql<{ site_id: number; status: SubjectStatus; count: number }>`
    select site_id, status, sum(subjects)::int as count from subject_fact_totals
    where study_id = ${context.studyId} and site_id in (${sql.join(context.siteIds)})
    group by site_id, status having sum(subjects) <> 0`.execute(db);
  const bySite = new Map<number, StatusCounts>(context.siteIds.map((id) => [id, emptyStatusCounts()]));
  for (const row of rows.rows) {
    const counts = bySite.get(Number(row.site_id));
    if (counts && row.status in counts) counts[row.status] = Number(row.count);
  }
  return bySite;
}
