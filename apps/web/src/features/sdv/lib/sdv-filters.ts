import {
  SDV_PAGE_SIZES,
  type SdvSubjectSortKey,
  type SortOrder,
  sdvSubjectSortKeys,
  sdvSubjectStateFilters,
} from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

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

/**
 * Defaults left out of the URL. A change of filter, sort or size starts on page 1 and folds the
 * unfolded subject; unfolding keeps the page.
 */
export const sdvListParams = defineListParams<SdvFilters>({
  siteId: param.id(),
  subject: param.text(),
  state: param.oneOf(sdvSubjectStateFilters, 'all'),
  sort: param.oneOf(sdvSubjectSortKeys, 'subjectId'),
  order: param.order('asc'),
  size: param.oneOf(SDV_PAGE_SIZES, 10),
  page: param.page(),
  open: param.id(),
});

export const DEFAULT_SDV_FILTERS: SdvFilters = sdvListParams.read(new URLSearchParams());

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
