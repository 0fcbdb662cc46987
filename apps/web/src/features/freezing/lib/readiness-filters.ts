import {
  READINESS_PAGE_SIZES,
  type ReadinessSortKey,
  readinessHoldFilters,
  readinessSortKeys,
  readinessStateFilters,
  type SortOrder,
} from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

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

/** Defaults left out of the URL. */
export const readinessListParams = defineListParams<ReadinessFilters>({
  siteId: param.id(),
  subject: param.text(),
  state: param.oneOf(readinessStateFilters, 'all'),
  hold: param.oneOf(readinessHoldFilters, 'all'),
  sort: param.oneOf(readinessSortKeys, 'subjectId'),
  order: param.order('asc'),
  size: param.oneOf(READINESS_PAGE_SIZES, 10),
  page: param.page(),
});

export const DEFAULT_READINESS_FILTERS: ReadinessFilters = readinessListParams.read(new URLSearchParams());

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
