import { type GuidelineState, type GuidelineType, guidelineStates, guidelineTypes } from '@cdms/contract';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';

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

export const DEFAULT_GUIDELINE_FILTERS: GuidelineFilters = {
  type: '',
  state: '',
  search: '',
  page: 1,
  size: 10,
};

export function readGuidelineFilters(params: URLSearchParams): GuidelineFilters {
  const type = params.get('type') ?? '';
  const state = params.get('state') ?? '';
  const size = Number(params.get('size'));
  return {
    type: (guidelineTypes as readonly string[]).includes(type) ? (type as GuidelineType) : '',
    state: (guidelineStates as readonly string[]).includes(state) ? (state as GuidelineState) : '',
    search: (params.get('search') ?? '').slice(0, 100),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: GUIDELINE_PAGE_SIZES.find((allowed) => allowed === size) ?? 10,
  };
}

/** The URL after applying filters: a new filter starts on page 1; defaults are left out. */
export function writeGuidelineFilters(
  current: URLSearchParams,
  filters: Omit<GuidelineFilters, 'page'>,
): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of ['type', 'state', 'search', 'size', PAGE_PARAM]) params.delete(key);
  if (filters.type) params.set('type', filters.type);
  if (filters.state) params.set('state', filters.state);
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.size !== 10) params.set('size', String(filters.size));
  return params;
}

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
