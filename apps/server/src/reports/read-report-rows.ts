import { type Kysely, sql } from 'kysely';
import type { Database, ReportRowsReport } from '../db/schema.ts';
import type { ReportContext } from './report-context.ts';

/**
 * Reading the listing reports' stored rows (`read-model/report-rows.ts`, issue 46): a page in the
 * report's order, read from an index, and the counts per group from the totals — neither grows with
 * the trial. Only the rows in the reader's sites count, and a row with a `counts_from` date only
 * from that date on (today in UTC+9, the report's day).
 */

export interface StoredReportRow {
  subject_id: number;
  site_code: string;
  screening_number: string;
  payload: Record<string, unknown>;
}

export interface ReportRowCount {
  site_id: number;
  group_key: string;
  bucket: string;
  rows: number;
  /** The rows' values added up (0 for rows without one). */
  value_sum: number;
}

interface Selection {
  report: ReportRowsReport;
  /** Only these buckets (a filter: serious events, one kind); all when omitted. */
  buckets?: readonly string[];
}

function where(context: ReportContext, selection: Selection) {
  const buckets = selection.buckets;
  return sql`study_id = ${context.studyId} and report = ${selection.report}
    and site_id in (${sql.join(context.siteIds)})
    ${buckets ? sql`and bucket in (${sql.join(buckets)})` : sql``}
    and (counts_from is null or counts_from <= ${context.today}::date)`;
}

/** A page of the report's rows, in its order (`report_rows_page_idx`). */
async function reportRowsPage(
  db: Kysely<Database>,
  context: ReportContext,
  selection: Selection,
  page: { page: number; size: number },
): Promise<StoredReportRow[]> {
  if (context.siteIds.length === 0 || selection.buckets?.length === 0) return [];
  const result = await sql<StoredReportRow>`
    select subject_id, site_code, screening_number, payload from report_rows
    where ${where(context, selection)}
    order by sort_date, site_code collate "C", screening_number collate "C", sort_rest collate "C"
    limit ${page.size} offset ${(page.page - 1) * page.size}`.execute(db);
  return result.rows;
}

/**
 * The report's rows counted per site, group and bucket, from the totals. `perSite: false` sums the
 * sites in the database (their rows say site 0): a figure of the whole scope, whose groups — a
 * measure's values, say — would otherwise come back once for every site.
 */
export async function reportRowCounts(
  db: Kysely<Database>,
  context: ReportContext,
  selection: Selection,
  options: { perSite?: boolean } = {},
): Promise<ReportRowCount[]> {
  if (context.siteIds.length === 0 || selection.buckets?.length === 0) return [];
  const perSite = options.perSite !== false;
  const result = await sql<ReportRowCount>`
    select ${perSite ? sql`site_id` : sql`0`} as site_id, group_key, bucket, sum(rows)::int as rows,
      sum(value_sum)::float8 as value_sum
    from report_row_totals
    where ${where(context, selection)}
    group by ${perSite ? sql`site_id, ` : sql``}group_key, bucket
    having sum(rows) <> 0`.execute(db);
  return result.rows;
}

/** A listing's page and its counts, read side by side (`reportRowsPage`, `reportRowCounts`). */
export async function readListing(
  db: Kysely<Database>,
  context: ReportContext,
  selection: Selection,
  page: { page: number; size: number },
): Promise<{ rows: StoredReportRow[]; counts: ReportRowCount[] }> {
  const [rows, counts] = await Promise.all([
    reportRowsPage(db, context, selection, page),
    reportRowCounts(db, context, selection),
  ]);
  return { rows, counts };
}

/** The sum of `counts` where `pick` says (all when omitted). */
export function countOf(
  counts: readonly ReportRowCount[],
  pick?: (count: ReportRowCount) => boolean,
): number {
  return counts.reduce((sum, count) => (pick && !pick(count) ? sum : sum + count.rows), 0);
}

/**
 * The median of the values a histogram counts (value → how many), as PostgreSQL's
 * `percentile_cont(0.5)` gives it: the middle value, or the mean of the two middle ones; null for none.
 */
export function medianOf(histogram: Map<number, number> | undefined): number | null {
  const entries = [...(histogram ?? new Map<number, number>()).entries()]
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => a - b);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const valueAt = (position: number): number => {
    let seen = 0;
    for (const [value, count] of entries) {
      seen += count;
      if (position < seen) return value;
    }
    return entries.at(-1)?.[0] ?? 0;
  };
  const middle = (total - 1) / 2;
  return (valueAt(Math.floor(middle)) + valueAt(Math.ceil(middle))) / 2;
}

const CHUNK = 500;

/** Every row of the report, a chunk at a time, in its order (the downloads). */
export async function* allReportRows(
  db: Kysely<Database>,
  context: ReportContext,
  selection: Selection,
): AsyncGenerator<StoredReportRow[]> {
  for (let page = 1; ; page += 1) {
    const rows = await reportRowsPage(db, context, selection, { page, size: CHUNK });
    if (rows.length > 0) yield rows;
    if (rows.length < CHUNK) return;
  }
}
