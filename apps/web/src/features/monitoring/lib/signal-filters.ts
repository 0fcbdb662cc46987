import { SIGNAL_PAGE_SIZES, type SignalKind, signalKinds, signalStates } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

/**
 * The signal list's filters as they live in the URL: site, kind, state, size and page, named as the
 * API's parameters (signalListQuerySchema), defaults left out. The server sorts by strength.
 */

export const signalStateFilters = ['active', ...signalStates] as const;
export type SignalStateFilter = (typeof signalStateFilters)[number];
export type SignalPageSize = (typeof SIGNAL_PAGE_SIZES)[number];

export interface SignalFilters {
  site: number | null;
  kind: SignalKind | '';
  state: SignalStateFilter;
  size: SignalPageSize;
  page: number;
}

export const signalListParams = defineListParams<SignalFilters>({
  site: param.id(),
  kind: param.oneOf<SignalKind | ''>(['', ...signalKinds], ''),
  state: param.oneOf(signalStateFilters, 'active'),
  size: param.oneOf(SIGNAL_PAGE_SIZES, 20),
  page: param.page(),
});

/** The API's query string of the list. */
export function signalListQueryString(filters: SignalFilters): string {
  const params = new URLSearchParams({
    state: filters.state,
    page: String(filters.page),
    size: String(filters.size),
  });
  if (filters.site !== null) params.set('site', String(filters.site));
  if (filters.kind) params.set('kind', filters.kind);
  return params.toString();
}
