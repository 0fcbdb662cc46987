import {
  type QueryAgeBucket,
  type QueryAgingLine,
  type QueryAgingReport,
  queryAgeBuckets,
  type ReportFilter,
} from '@cdms/contract';
import { daysBetween } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ageBucketOf } from '../queries/list-queries.ts';
import { medianOf, reportRowCounts } from './read-report-rows.ts';
import { nothingInScope, type ReportContext } from './report-context.ts';

/**
 * Query aging (issue 17, after the query list of issue 14): unresolved queries — open and answered —
 * per age bucket (whole days in UTC+9 since opening, the list's buckets) and site, with the median
 * days from opening to the first answer and to closing; a query of a deleted subject is not counted.
 * Read from the totals of the read model's query-aging rows (`read-model/report-rows.ts`, issue 46):
 * the unresolved queries per site, state and day of opening (aged against today here), and per site
 * how many took each number of days to an answer or to closing — whose medians are those of the
 * queries themselves. Neither grows with the trial, only with its calendar.
 */

const noBuckets = (): Record<QueryAgeBucket, number> =>
  Object.fromEntries(queryAgeBuckets.map((bucket) => [bucket, 0])) as Record<QueryAgeBucket, number>;

const emptyLine = (): QueryAgingLine => ({
  open: noBuckets(),
  answered: noBuckets(),
  medianDaysToAnswer: null,
  medianDaysToClose: null,
});

const numberOrNull = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 10) / 10;

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

  const counts = await reportRowCounts(db, context, { report: 'queryAging' });
  const lines = new Map<number | null, QueryAgingLine>();
  const lineOf = (siteId: number | null): QueryAgingLine => {
    let line = lines.get(siteId);
    if (!line) {
      line = emptyLine();
      lines.set(siteId, line);
    }
    return line;
  };
  // Days to an answer and to closing, per site and for the study: how many queries took each.
  const toAnswer = new Map<number | null, Map<number, number>>();
  const toClose = new Map<number | null, Map<number, number>>();
  const tally = (
    histograms: Map<number | null, Map<number, number>>,
    siteId: number | null,
    days: number,
    rows: number,
  ) => {
    const histogram = histograms.get(siteId) ?? new Map<number, number>();
    histogram.set(days, (histogram.get(days) ?? 0) + rows);
    histograms.set(siteId, histogram);
  };
  for (const count of counts) {
    for (const siteId of [count.site_id, null]) {
      if (count.bucket === 'open' || count.bucket === 'answered') {
        const bucket = ageBucketOf(daysBetween(count.group_key, context.today) ?? 0);
        lineOf(siteId)[count.bucket][bucket] += count.rows;
      } else if (count.bucket === 'daysToAnswer')
        tally(toAnswer, siteId, Number(count.group_key), count.rows);
      else if (count.bucket === 'daysToClose') tally(toClose, siteId, Number(count.group_key), count.rows);
    }
  }
  for (const siteId of [...sites.map((site) => site.id), null]) {
    const line = lineOf(siteId);
    line.medianDaysToAnswer = numberOrNull(medianOf(toAnswer.get(siteId)));
    line.medianDaysToClose = numberOrNull(medianOf(toClose.get(siteId)));
  }
  return {
    report: 'queryAging',
    sites: sites.map((site) => ({ siteId: site.id, siteCode: site.code, ...lineOf(site.id) })),
    total: lineOf(null),
  };
}
