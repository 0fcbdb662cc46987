import { VISIT_ALARM_PAGE_SIZES, type VisitAlarmState, visitAlarmStates } from '@cdms/contract';
import { defineListParams, param } from '../../../lib/list-state.ts';

// The subject-alarm page's filters live in the URL, so a link (from the dashboard's counts or the
// subject-info popup) or a reload shows the same list.
export const SITE_PARAM = 'site';

export type AlarmPageSize = (typeof VISIT_ALARM_PAGE_SIZES)[number];

export interface AlarmFilters {
  siteId: number | null;
  state: VisitAlarmState | null;
  size: AlarmPageSize;
}

/** Defaults left out of the URL; the page is kept by the pager (`page`), back to 1 on any change. */
export const alarmListParams = defineListParams<AlarmFilters>({
  siteId: param.id(SITE_PARAM),
  state: { read: (raw) => visitAlarmStates.find((known) => known === raw) ?? null, write: (value) => value },
  size: param.oneOf(VISIT_ALARM_PAGE_SIZES, 10),
});

export const DEFAULT_ALARM_FILTERS: AlarmFilters = alarmListParams.read(new URLSearchParams());

/** The API query string for the filters and page. */
export function alarmQueryString(filters: AlarmFilters, page: number): string {
  const query = new URLSearchParams();
  if (filters.siteId !== null) query.set('site', String(filters.siteId));
  if (filters.state !== null) query.set('state', filters.state);
  query.set('page', String(page));
  query.set('size', String(filters.size));
  return query.toString();
}
