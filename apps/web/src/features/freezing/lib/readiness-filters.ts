import {
  READINESS_PAGE_SIZES,
  type ReadinessSortKey,
  readinessHoldFilters,
  readinessSortKeys,
  readinessStateFilters,
} from '@cdms/contract';
import type { SortOrder } from '../../../components/list-page.tsx';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { oneOf, searchText, siteIdOf } from '../../../lib/list-params.ts';

/**
 * The readiness board's filters as they live in the URL (issue 15): site, subject, ready or not, hold,
 * sort, size and page, named as the API's parameters (readinessSubjectsQuerySchema), defaults left out.
 */

export type ReadinessStateChoice = (typeof readinessStateFilters)[number];
export type ReadinessHoldChoice = (typeof readinessHoldFilters)[number];
export type ReadinessPageSize = (typeof READINESS_PAGE_SIZES)[number];

export interface ReadinessFilters {
  siteId: number | null;
  subject: string;
  state: ReadinessStateChoice;
  hold: ReadinessHoldChoice;
  sort: ReadinessSortKey;
  order: SortOrder;
  page: number;
  size: ReadinessPageSize;
}

export const DEFAULT_READINESS_FILTERS: ReadinessFilters = {
  siteId: null,
  subject: '',
  state: 'all',
  hold: 'all',
  sort: 'subjectId',
  order: 'asc',
  page: 1,
  size: 10,
};

const PARAMS = ['siteId', 'subject', 'state', 'hold', 'sort', 'order', 'size', PAGE_PARAM];

export function readReadinessFilters(params: URLSearchParams): ReadinessFilters {
  const defaults = DEFAULT_READINESS_FILTERS;
  return {
    siteId: siteIdOf(params.get('siteId')),
    subject: searchText(params.get('subject')),
    state: oneOf(readinessStateFilters, params.get('state'), defaults.state),
    hold: oneOf(readinessHoldFilters, params.get('hold'), defaults.hold),
    sort: oneOf(readinessSortKeys, params.get('sort'), defaults.sort),
    order: oneOf<SortOrder>(['asc', 'desc'], params.get('order'), defaults.order),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: oneOf(READINESS_PAGE_SIZES, params.get('size'), defaults.size),
  };
}

/** The URL of a changed board, keeping parameters that are not the board's (menu-type); page 1. */
export function writeReadinessFilters(
  current: URLSearchParams,
  filters: Omit<ReadinessFilters, 'page'>,
): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of PARAMS) params.delete(key);
  const defaults = DEFAULT_READINESS_FILTERS;
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject.trim()) params.set('subject', filters.subject.trim());
  if (filters.state !== defaults.state) params.set('state', filters.state);
  if (filters.hold !== defaults.hold) params.set('hold', filters.hold);
  if (filters.sort !== defaults.sort || filters.order !== defaults.order) {
    params.set('sort', filters.sort);
    params.set('order', filters.order);
  }
  if (filters.size !== defaults.size) params.set('size', String(filters.size));
  return params;
}

/** The API's query string for one page of subjects. */
export function readinessQueryString(filters: ReadinessFilters): string {
  const params = new URLSearchParams();
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject) params.set('subject', filters.subject);
  params.set('state', filters.state);
  params.set('hold', filters.hold);
  params.set('sort', filters.sort);
  params.set('order', filters.order);
  params.set('page', String(filters.page));
  params.set('size', String(filters.size));
  return params.toString();
}
