import { LAB_RESULT_PAGE_SIZES, labResultFlagFilters } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

/**
 * The out-of-range listing's filters as they live in the URL: site, subject, test, flag, size and
 * page, named as the API's parameters (labResultsQuerySchema), defaults left out.
 */

export type LabFlagChoice = (typeof labResultFlagFilters)[number];
export type LabPageSize = (typeof LAB_RESULT_PAGE_SIZES)[number];

export interface LabResultFilters {
  siteId: number | null;
  subject: string;
  testKey: string;
  flag: LabFlagChoice;
  page: number;
  size: LabPageSize;
}

/** Defaults left out of the URL. */
export const labListParams = defineListParams<LabResultFilters>({
  siteId: param.id(),
  subject: param.text(),
  testKey: param.text(50),
  flag: param.oneOf(labResultFlagFilters, 'all'),
  size: param.oneOf(LAB_RESULT_PAGE_SIZES, 10),
  page: param.page(),
});

export const DEFAULT_LAB_FILTERS: LabResultFilters = labListParams.read(new URLSearchParams());

/** The API's query string of the listing. */
export function labResultsQueryString(filters: LabResultFilters): string {
  const params = new URLSearchParams({
    flag: filters.flag,
    page: String(filters.page),
    size: String(filters.size),
  });
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject) params.set('subject', filters.subject);
  if (filters.testKey) params.set('testKey', filters.testKey);
  return params.toString();
}

/** The download's query: the listing's filters without the paging, and the format. */
export function labResultsDownloadQueryString(filters: LabResultFilters, format: 'csv' | 'xlsx'): string {
  const params = new URLSearchParams(labResultsQueryString(filters));
  params.delete('page');
  params.delete('size');
  params.set('format', format);
  return params.toString();
}
