import { CODING_PAGE_SIZES, type CodingStatus, codingKinds, codingStatuses } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

/** The coding queue's state as it lives in the URL, named as the API's parameters; '' is "any". */

export type CodingPageSize = (typeof CODING_PAGE_SIZES)[number];

export interface CodingFilters {
  status: CodingStatus | '';
  kind: (typeof codingKinds)[number] | '';
  search: string;
  size: CodingPageSize;
  page: number;
}

export const codingParams = defineListParams<CodingFilters>({
  status: param.oneOf<CodingStatus | ''>(['', ...codingStatuses], ''),
  kind: param.oneOf<CodingFilters['kind']>(['', ...codingKinds], ''),
  search: param.text(100),
  size: param.oneOf(CODING_PAGE_SIZES, 20),
  page: param.page(),
});

export const DEFAULT_CODING_FILTERS: CodingFilters = codingParams.read(new URLSearchParams());

export function codingQueryString(filters: CodingFilters): string {
  const params: Record<string, string> = { page: String(filters.page), size: String(filters.size) };
  if (filters.status) params.status = filters.status;
  if (filters.kind) params.kind = filters.kind;
  if (filters.search.trim()) params.search = filters.search.trim();
  return new URLSearchParams(params).toString();
}
