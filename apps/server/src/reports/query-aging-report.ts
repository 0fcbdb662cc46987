import {
  type QueryAgeBucket,
  type QueryAgingLine,
  type QueryAgingReport,
  queryAgeBuckets,
  type ReportFilter,
} from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ageBucketExpression } from '../queries/list-queries.ts';
import { nothingInScope, type ReportContext } from './report-context.ts';

/**
 * Query aging (issue 17, after the query list of issue 14): unresolved queries — open and answered —
 * per age bucket (whole days in UTC+9 since opening, the list's buckets) and site, with the median
 * days from opening to the first answer and to closing. One grouped query over `queries` with
 * grouping sets (per site and the total); a query of a deleted subject is not counted.
 */

interface AgingRow {
  site_id: number | null;
  state: 'open' | 'answered' | null;
  bucket: QueryAgeBucket | null;
  count: number | string;
}

interface MedianRow {
  site_id: number | null;
  median_answer: number | string | null;
  median_close: number | string | null;
}

const noBuckets = (): Record<QueryAgeBucket, number> =>
  Object.fromEntries(queryAgeBuckets.map((bucket) => [bucket, 0])) as Record<QueryAgeBucket, number>;

const emptyLine = (): QueryAgingLine => ({
  open: noBuckets(),
  answered: noBuckets(),
  medianDaysToAnswer: null,
  medianDaysToClose: null,
});

const numberOrNull = (value: number | string | null): number | null =>
  value === null ? null : Math.round(Number(value) * 10) / 10;

export async function queryAgingReport(
  db: Kysely<Database>,
  context: ReportContext,
  _filter: ReportFilter,
): Promise<QueryAgingReport> {
  const sites = nothingInScope(context)
    ? []
    : await db
        .selectFrom('sites')
        .select(['id', 'code'])
        .where('id', 'in', context.siteIds)
        .orderBy('institution_number')
        .execute();
  if (sites.length === 0) return { report: 'queryAging', sites: [], total: emptyLine() };

  const inScope = sql`queries.study_id = ${context.studyId} and queries.site_id in (${sql.join(context.siteIds)})
    and exists (select 1 from subjects s where s.id = queries.subject_id and s.deleted_at is null)`;
  const koreanDay = (column: string) =>
    sql`((${sql.ref(column)} at time zone 'UTC') + interval '9 hours')::date`;

  const [aging, medians] = await Promise.all([
    sql<AgingRow>`select site_id, state, bucket, count(*) as count from (
        select queries.site_id, queries.status as state,
          ${ageBucketExpression(context.today)} as bucket
        from queries where ${inScope} and queries.status in ('open', 'answered')) aged
      group by grouping sets ((site_id, state, bucket), (state, bucket))`.execute(db),
    sql<MedianRow>`select site_id,
        percentile_cont(0.5) within group (order by days_to_answer) as median_answer,
        percentile_cont(0.5) within group (order by days_to_close) as median_close
      from (
        select queries.site_id,
          (select ${koreanDay('m.created_at')} from query_messages m
            where m.query_id = queries.id and m.kind = 'answer' order by m.created_at, m.id limit 1)
            - ${koreanDay('queries.opened_at')} as days_to_answer,
          case when queries.status = 'closed' and queries.closed_at is not null
            then ${koreanDay('queries.closed_at')} - ${koreanDay('queries.opened_at')} end as days_to_close
        from queries where ${inScope}) timed
      group by grouping sets ((site_id), ())`.execute(db),
  ]);

  const lines = new Map<number | null, QueryAgingLine>();
  const lineOf = (siteId: number | null): QueryAgingLine => {
    let line = lines.get(siteId);
    if (!line) {
      line = emptyLine();
      lines.set(siteId, line);
    }
    return line;
  };
  for (const row of aging.rows) {
    if (row.state === null || row.bucket === null) continue;
    lineOf(row.site_id === null ? null : Number(row.site_id))[row.state][row.bucket] = Number(row.count);
  }
  for (const row of medians.rows) {
    const line = lineOf(row.site_id === null ? null : Number(row.site_id));
    line.medianDaysToAnswer = numberOrNull(row.median_answer);
    line.medianDaysToClose = numberOrNull(row.median_close);
  }
  return {
    report: 'queryAging',
    sites: sites.map((site) => ({ siteId: site.id, siteCode: site.code, ...lineOf(site.id) })),
    total: lineOf(null),
  };
}
