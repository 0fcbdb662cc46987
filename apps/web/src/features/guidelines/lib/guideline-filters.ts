import { type GuidelineState, type GuidelineType, guidelineStates, guidelineTypes } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

export const GUIDELINE_PAGE_SIZES = [10, 20, 50] as const;
export type GuidelinePageSize = (typeof GUIDELINE_PAGE_SIZES)[number];

/** The guideline list's filters as the URL holds them: type, state, keyword, page and size. */
export interface GuidelineFilters {
  type: GuidelineType | '';
  state: GuidelineState | '';
  search: string;
  page: number;
  size: GuidelinePageSize;
}

/** Defaults left out of the URL. */
export const guidelineListParams = defineListParams<GuidelineFilters>({
  type: param.oneOf<GuidelineType | ''>(guidelineTypes, ''),
  state: param.oneOf<GuidelineState | ''>(guidelineStates, ''),
  search: param.text(),
  size: param.oneOf(GUIDELINE_PAGE_SIZES, 10),
  page: param.page(),
});

export const DEFAULT_GUIDELINE_FILTERS: GuidelineFilters = guidelineListParams.read(new URLSearchParams());

/** The API's query string for the filters. */
export function guidelineListQueryString(filters: GuidelineFilters): string {
  const params = new URLSearchParams();
  if (filters.type) params.set('type', filters.type);
  if (filters.state) params.set('state', filters.state);
  if (filters.search.trim()) params.set('search', filters.search.trim());
  params.set('page', String(filters.page));
  params.set('size', String(filters.size));
  return params.toString();
}
