import { type SubjectStatus, type SummaryStatusCounts, subjectStatuses } from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportContext } from '../reports/report-context.ts';
import { factsInScope } from './summary-sources.ts';

export const noStatuses = (): SummaryStatusCounts =>
  Object.fromEntries(subjectStatuses.map((status) => [status, 0])) as SummaryStatusCounts;

/** Subjects per site and status, one GROUP BY over the read model. */
export async function countSubjectStatuses(
  db: Kysely<Database>,
  context: ReportContext,
): Promise<Map<number, SummaryStatusCounts>> {
  const rows = await sql<{ site_id: number; status: SubjectStatus; count: number | string }>`
    select f.site_id, f.status, count(*) as count from subject_facts f
    where ${factsInScope(context)} group by f.site_id, f.status`.execute(db);
  const bySite = new Map<number, SummaryStatusCounts>(context.siteIds.map((id) => [id, noStatuses()]));
  for (const row of rows.rows) {
    const counts = bySite.get(Number(row.site_id));
    if (counts && row.status in counts) counts[row.status] = Number(row.count);
  }
  return bySite;
}
