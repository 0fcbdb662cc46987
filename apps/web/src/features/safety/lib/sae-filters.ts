import { SAE_PAGE_SIZES, type SaeStatus, saeStatuses } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

/** The SAE list's filters as they live in the URL, named as the API's parameters (saeListQuerySchema). */

export type SaePageSize = (typeof SAE_PAGE_SIZES)[number];
export const saeClockFilters = ['', 'true', 'false'] as const;
export type SaeClockFilter = (typeof saeClockFilters)[number];

export interface SaeFilters {
  site: number | null;
  status: SaeStatus | '';
  overdue: SaeClockFilter;
  size: SaePageSize;
  page: number;
}

export const saeListParams = defineListParams<SaeFilters>({
  site: param.id(),
  status: param.oneOf<SaeStatus | ''>(['', ...saeStatuses], ''),
  overdue: param.oneOf(saeClockFilters, ''),
  size: param.oneOf(SAE_PAGE_SIZES, 20),
  page: param.page(),
});

/** The API's query string of the list. */
export function saeListQueryString(filters: SaeFilters): string {
  const params = new URLSearchParams({ page: String(filters.page), size: String(filters.size) });
  if (filters.site !== null) params.set('siteId', String(filters.site));
  if (filters.status) params.set('status', filters.status);
  if (filters.overdue) params.set('overdue', filters.overdue);
  return params.toString();
}

/** Time left to the due time, in hours and minutes (negative: overdue by that much). */
export function timeLeft(dueAt: string, now: number): { overdue: boolean; hours: number; minutes: number } {
  const minutes = Math.floor((Date.parse(dueAt) - now) / 60_000);
  const overdue = minutes < 0;
  const absolute = Math.abs(minutes);
  return { overdue, hours: Math.floor(absolute / 60), minutes: absolute % 60 };
}
