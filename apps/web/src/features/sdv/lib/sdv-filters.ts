import {
  SDV_PAGE_SIZES,
  type SdvSubjectSortKey,
  sdvSubjectSortKeys,
  sdvSubjectStateFilters,
} from '@cdms/contract';
import type { SortOrder } from '../../../components/list-page.tsx';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { oneOf, searchText, siteIdOf } from '../../../lib/list-params.ts';

/**
 * The SDV page's filters as they live in the URL (issue 15): site, subject, state, sort, size and
 * page, named as the API's parameters (sdvSubjectsQuerySchema), defaults left out; `open` is the
 * subject whose visits and forms are unfolded.
 */

export type SdvStateChoice = (typeof sdvSubjectStateFilters)[number];
export type SdvPageSize = (typeof SDV_PAGE_SIZES)[number];

export interface SdvFilters {
  siteId: number | null;
  subject: string;
  state: SdvStateChoice;
  sort: SdvSubjectSortKey;
  order: SortOrder;
  page: number;
  size: SdvPageSize;
  /** The subject unfolded to its visits and forms, or null. */
  open: number | null;
}

export const DEFAULT_SDV_FILTERS: SdvFilters = {
  siteId: null,
  subject: '',
  state: 'all',
  sort: 'subjectId',
  order: 'asc',
  page: 1,
  size: 10,
  open: null,
};

const PARAMS = ['siteId', 'subject', 'state', 'sort', 'order', 'size', 'open', PAGE_PARAM];

export function readSdvFilters(params: URLSearchParams): SdvFilters {
  const defaults = DEFAULT_SDV_FILTERS;
  return {
    siteId: siteIdOf(params.get('siteId')),
    subject: searchText(params.get('subject')),
    state: oneOf(sdvSubjectStateFilters, params.get('state'), defaults.state),
    sort: oneOf(sdvSubjectSortKeys, params.get('sort'), defaults.sort),
    order: oneOf<SortOrder>(['asc', 'desc'], params.get('order'), defaults.order),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: oneOf(SDV_PAGE_SIZES, params.get('size'), defaults.size),
    open: siteIdOf(params.get('open')),
  };
}

/**
 * The URL of a changed list, keeping parameters that are not the list's (menu-type). A change of
 * filter, sort or size starts on page 1 and folds the unfolded subject; unfolding keeps the page.
 */
export function writeSdvFilters(
  current: URLSearchParams,
  filters: Omit<SdvFilters, 'page'> & { page?: number },
): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of PARAMS) params.delete(key);
  const defaults = DEFAULT_SDV_FILTERS;
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject.trim()) params.set('subject', filters.subject.trim());
  if (filters.state !== defaults.state) params.set('state', filters.state);
  if (filters.sort !== defaults.sort || filters.order !== defaults.order) {
    params.set('sort', filters.sort);
    params.set('order', filters.order);
  }
  if (filters.size !== defaults.size) params.set('size', String(filters.size));
  if (filters.page && filters.page > 1) params.set(PAGE_PARAM, String(filters.page));
  if (filters.open !== null) params.set('open', String(filters.open));
  return params;
}

/** The API's query string for one page of subjects. */
export function sdvSubjectsQueryString(filters: SdvFilters): string {
  const params = new URLSearchParams();
  if (filters.siteId !== null) params.set('siteId', String(filters.siteId));
  if (filters.subject) params.set('subject', filters.subject);
  params.set('state', filters.state);
  params.set('sort', filters.sort);
  params.set('order', filters.order);
  params.set('page', String(filters.page));
  params.set('size', String(filters.size));
  return params.toString();
}
