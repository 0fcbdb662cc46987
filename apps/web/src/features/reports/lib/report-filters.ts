import { protocolDeviationKinds, REPORT_PAGE_SIZES, type ReportKey, reportKeys } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

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

/**
 * Defaults left out of the URL; a filter that only one report reads is dropped when another report
 * is chosen.
 */
export const reportListParams = defineListParams<ReportFilters>(
  {
    report: param.oneOf(reportKeys, 'enrollment'),
    siteId: param.id(),
    deviation: param.oneOf(DEVIATION_CHOICES, 'all'),
    serious: param.oneOf(SERIOUS_CHOICES, 'all'),
    size: param.oneOf(REPORT_PAGE_SIZES, 20),
    page: param.page(),
  },
  (values) => ({
    ...values,
    deviation: values.report === 'protocolDeviations' ? values.deviation : 'all',
    serious: values.report === 'adverseEvents' ? values.serious : 'all',
  }),
);

export const DEFAULT_REPORT_FILTERS: ReportFilters = reportListParams.read(new URLSearchParams());

/** The reports that list rows (paged); the others are one table of a few lines. */
export function isListing(report: ReportKey): boolean {
  return report === 'missingForms' || report === 'protocolDeviations' || report === 'adverseEvents';
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
