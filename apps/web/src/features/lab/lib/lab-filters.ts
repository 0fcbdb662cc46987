import { LAB_RESULT_PAGE_SIZES, labResultFlagFilters } from '@cdms/contract';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { oneOf, searchText, siteIdOf } from '../../../lib/list-params.ts';

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

export const DEFAULT_LAB_FILTERS: LabResultFilters = {
  siteId: null,
  subject: '',
  testKey: '',
  flag: 'all',
  page: 1,
  size: 10,
};

const PARAMS = ['siteId', 'subject', 'testKey', 'flag', 'size', PAGE_PARAM];

export function readLabFilters(params: URLSearchParams): LabResultFilters {
  return {
    siteId: siteIdOf(params.get('siteId')),
    subject: searchText(params.get('subject')),
    testKey: searchText(params.get('testKey'), 50),
    flag: oneOf(labResultFlagFilters, params.get('flag'), DEFAULT_LAB_FILTERS.flag),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: oneOf(LAB_RESULT_PAGE_SIZES, params.get('size'), DEFAULT_LAB_FILTERS.size),
  };
}

/** The URL of a changed listing, keeping parameters that are not the listing's (menu-type). */
export function writeLabFilters(current: URLSearchParams, filters: LabResultFilters): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of PARAMS) params.delete(key);
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject.trim()) params.set('subject', filters.subject.trim());
  if (filters.testKey) params.set('testKey', filters.testKey);
  if (filters.flag !== DEFAULT_LAB_FILTERS.flag) params.set('flag', filters.flag);
  if (filters.size !== DEFAULT_LAB_FILTERS.size) params.set('size', String(filters.size));
  if (filters.page > 1) params.set(PAGE_PARAM, String(filters.page));
  return params;
}

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
