import { VISIT_ALARM_PAGE_SIZES, type VisitAlarmState, visitAlarmStates } from '@cdms/contract';

// The subject-alarm page's filters live in the URL, so a link (from the dashboard's counts or the
// subject-info popup) or a reload shows the same list.
export const SITE_PARAM = 'site';
export const STATE_PARAM = 'state';
export const SIZE_PARAM = 'size';
export const PAGE_PARAM = 'page';

export type AlarmPageSize = (typeof VISIT_ALARM_PAGE_SIZES)[number];

export interface AlarmFilters {
  siteId: number | null;
  state: VisitAlarmState | null;
  size: AlarmPageSize;
}

export const DEFAULT_ALARM_FILTERS: AlarmFilters = { siteId: null, state: null, size: 10 };

/** The filters a URL asks for; a value the server would refuse (typed by hand) counts as not set. */
export function readAlarmFilters(params: URLSearchParams): AlarmFilters {
  const site = params.get(SITE_PARAM);
  const siteId = site !== null && /^\d{1,9}$/.test(site) && Number(site) > 0 ? Number(site) : null;
  const state = params.get(STATE_PARAM);
  const size = Number(params.get(SIZE_PARAM));
  return {
    siteId,
    state: visitAlarmStates.find((known) => known === state) ?? null,
    size: VISIT_ALARM_PAGE_SIZES.find((known) => known === size) ?? DEFAULT_ALARM_FILTERS.size,
  };
}

/**
 * The URL after a filter change: other parameters (menu type) kept, defaults left out, and back
 * to page 1, since the old page number means nothing in the new list.
 */
export function writeAlarmFilters(current: URLSearchParams, filters: AlarmFilters): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (name: string, value: string | null) =>
    value === null ? next.delete(name) : next.set(name, value);
  set(SITE_PARAM, filters.siteId === null ? null : String(filters.siteId));
  set(STATE_PARAM, filters.state);
  set(SIZE_PARAM, filters.size === DEFAULT_ALARM_FILTERS.size ? null : String(filters.size));
  next.delete(PAGE_PARAM);
  return next;
}

/** The API query string for the filters and page. */
export function alarmQueryString(filters: AlarmFilters, page: number): string {
  const query = new URLSearchParams();
  if (filters.siteId !== null) query.set('site', String(filters.siteId));
  if (filters.state !== null) query.set('state', filters.state);
  query.set('page', String(page));
  query.set('size', String(filters.size));
  return query.toString();
}
