import { REVIEW_LISTING_PAGE_SIZES, type ReviewState, reviewStates, type SortOrder } from '@cdms/contract';
import { defineListParams, type ListParam, param } from '../../../lib/list-state.ts';

/**
 * A review listing's state as it lives in the URL, named as the API's parameters
 * (reviewListingQuerySchema) but `order` (the app's word for a sort's direction; the API's `dir`):
 * the listing (a form, or `form__group`), the filters, the sort — a fixed column or `item:<key>` —,
 * the page and its size. '' is "any"; defaults are left out.
 */

export type ReviewListingPageSize = (typeof REVIEW_LISTING_PAGE_SIZES)[number];

export interface ReviewListingFilters {
  table: string;
  siteId: number | null;
  visitKey: string;
  review: ReviewState | '';
  search: string;
  sort: string;
  order: SortOrder;
  size: ReviewListingPageSize;
  page: number;
}

const SORT = /^(subject|visit|savedAt|item:[A-Za-z][A-Za-z0-9_]{0,99})$/;

/** The sort: a fixed column or an item's; anything else is the default (by subject). */
const sortParam: ListParam<string> = {
  read: (raw) => (raw !== null && SORT.test(raw) ? raw : 'subject'),
  write: (value) => (value === 'subject' ? null : value),
};

export const reviewListingParams = defineListParams<ReviewListingFilters>({
  table: param.matching(/^[A-Za-z][A-Za-z0-9_]{0,200}$/),
  siteId: param.id(),
  visitKey: param.matching(/^[A-Za-z0-9_-]{1,100}$/),
  review: param.oneOf<ReviewState | ''>(['', ...reviewStates], ''),
  search: param.text(50),
  sort: sortParam,
  order: param.order('asc'),
  size: param.oneOf(REVIEW_LISTING_PAGE_SIZES, 50),
  page: param.page(),
});

export const DEFAULT_REVIEW_FILTERS: ReviewListingFilters = reviewListingParams.read(new URLSearchParams());

/** The filters and sort the API takes, without paging. */
function apiParams(filters: ReviewListingFilters): Record<string, string> {
  const params: Record<string, string> = { sort: filters.sort, dir: filters.order };
  if (filters.siteId !== null) params.siteId = String(filters.siteId);
  if (filters.visitKey) params.visitKey = filters.visitKey;
  if (filters.review) params.review = filters.review;
  if (filters.search.trim()) params.search = filters.search.trim();
  return params;
}

export function reviewListingQueryString(filters: ReviewListingFilters): string {
  return new URLSearchParams({
    ...apiParams(filters),
    page: String(filters.page),
    size: String(filters.size),
  }).toString();
}

export function reviewListingExportQueryString(
  filters: ReviewListingFilters,
  columns: readonly string[],
  format: 'csv' | 'xlsx',
): string {
  return new URLSearchParams({ ...apiParams(filters), columns: columns.join(','), format }).toString();
}
