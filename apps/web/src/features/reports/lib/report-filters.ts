import { protocolDeviationKinds, REPORT_PAGE_SIZES, type ReportKey, reportKeys } from '@cdms/contract';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { oneOf, siteIdOf } from '../../../lib/list-params.ts';

/**
 * The report page's state as it lives in the URL (issue 17): which report, its filters, page size
 * and page. Parameter names are the API's (`reportQuerySchema`) and `report`; defaults are left out;
 * values the server would refuse are dropped when read, never sent.
 */

export type ReportPageSize = (typeof REPORT_PAGE_SIZES)[number];
export const DEVIATION_CHOICES = ['all', ...protocolDeviationKinds] as const;
export type DeviationChoice = (typeof DEVIATION_CHOICES)[number];
export const SERIOUS_CHOICES = ['all', 'serious'] as const;
export type SeriousChoice = (typeof SERIOUS_CHOICES)[number];

export interface ReportFilters {
  report: ReportKey;
  /** Null: every site of the reader. */
  siteId: number | null;
  deviation: DeviationChoice;
  serious: SeriousChoice;
  size: ReportPageSize;
  page: number;
}

export const DEFAULT_REPORT_FILTERS: ReportFilters = {
  report: 'enrollment',
  siteId: null,
  deviation: 'all',
  serious: 'all',
  size: 20,
  page: 1,
};

/** The reports that list rows (paged); the others are one table of a few lines. */
export function isListing(report: ReportKey): boolean {
  return report === 'missingForms' || report === 'protocolDeviations' || report === 'adverseEvents';
}

export function readReportFilters(params: URLSearchParams): ReportFilters {
  const size = Number(params.get('size'));
  return {
    report: oneOf(reportKeys, params.get('report'), DEFAULT_REPORT_FILTERS.report),
    siteId: siteIdOf(params.get('siteId')),
    deviation: oneOf(DEVIATION_CHOICES, params.get('deviation'), 'all'),
    serious: oneOf(SERIOUS_CHOICES, params.get('serious'), 'all'),
    size: REPORT_PAGE_SIZES.find((known) => known === size) ?? DEFAULT_REPORT_FILTERS.size,
    page: parsePageParam(params.get(PAGE_PARAM)),
  };
}

/**
 * The URL after a change: other parameters (menu type) kept, defaults left out; a filter that only
 * one report reads is dropped when another report is chosen, and the page goes back to 1.
 */
export function writeReportFilters(
  current: URLSearchParams,
  filters: Omit<ReportFilters, 'page'>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (name: string, value: string | null) =>
    value === null ? next.delete(name) : next.set(name, value);
  set('report', filters.report === DEFAULT_REPORT_FILTERS.report ? null : filters.report);
  set('siteId', filters.siteId === null ? null : String(filters.siteId));
  set(
    'deviation',
    filters.report === 'protocolDeviations' && filters.deviation !== 'all' ? filters.deviation : null,
  );
  set('serious', filters.report === 'adverseEvents' && filters.serious !== 'all' ? filters.serious : null);
  set('size', filters.size === DEFAULT_REPORT_FILTERS.size ? null : String(filters.size));
  next.delete(PAGE_PARAM);
  return next;
}

/** The API query string of the filters (the page and size only for listings, the format for a file). */
export function reportQueryString(filters: ReportFilters, format?: 'csv' | 'xlsx'): string {
  const query = new URLSearchParams();
  if (filters.siteId !== null) query.set('siteId', String(filters.siteId));
  if (filters.report === 'protocolDeviations' && filters.deviation !== 'all')
    query.set('deviation', filters.deviation);
  if (filters.report === 'adverseEvents' && filters.serious !== 'all') query.set('serious', filters.serious);
  if (format) query.set('format', format);
  else if (isListing(filters.report)) {
    query.set('page', String(filters.page));
    query.set('size', String(filters.size));
  }
  return query.toString();
}

/** Running totals of monthly counts (the cumulative enrollment line). */
export function cumulative(values: readonly number[]): number[] {
  let sum = 0;
  return values.map((value) => {
    sum += value;
    return sum;
  });
}
