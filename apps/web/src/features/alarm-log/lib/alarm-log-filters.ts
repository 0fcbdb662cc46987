import {
  ALARM_LOG_PAGE_SIZES,
  type AlarmLogStatus,
  alarmLogStatuses,
  type NotificationChannel,
  type NotificationEventType,
  notificationChannels,
  notificationEventTypes,
} from '@cdms/contract';
import { PAGE_PARAM, parsePageParam } from '../../../components/pagination.tsx';
import { isCalendarDate } from '../../../lib/date-text.ts';
import { oneOf, searchText, siteIdOf } from '../../../lib/list-params.ts';

/**
 * The alarm log's filters as they live in the URL, named as the API's parameters
 * (alarmLogQuerySchema); '' is "any", defaults are left out.
 */

export type AlarmLogPageSize = (typeof ALARM_LOG_PAGE_SIZES)[number];

export interface AlarmLogFilters {
  eventType: NotificationEventType | '';
  channel: NotificationChannel | '';
  status: AlarmLogStatus | '';
  siteId: number | null;
  from: string;
  to: string;
  recipient: string;
  page: number;
  size: AlarmLogPageSize;
}

export const DEFAULT_ALARM_LOG_FILTERS: AlarmLogFilters = {
  eventType: '',
  channel: '',
  status: '',
  siteId: null,
  from: '',
  to: '',
  recipient: '',
  page: 1,
  size: 20,
};

const PARAMS = ['eventType', 'channel', 'status', 'siteId', 'from', 'to', 'recipient', 'size', PAGE_PARAM];

const dateOf = (raw: string | null) => (raw && isCalendarDate(raw) ? raw : '');

export function readAlarmLogFilters(params: URLSearchParams): AlarmLogFilters {
  const from = dateOf(params.get('from'));
  const to = dateOf(params.get('to'));
  return {
    eventType: oneOf(['', ...notificationEventTypes], params.get('eventType'), ''),
    channel: oneOf(['', ...notificationChannels], params.get('channel'), ''),
    status: oneOf(['', ...alarmLogStatuses], params.get('status'), ''),
    siteId: siteIdOf(params.get('siteId')),
    // A period the server would refuse (ends before it starts) keeps only its start.
    from,
    to: from && to && to < from ? '' : to,
    recipient: searchText(params.get('recipient')),
    page: parsePageParam(params.get(PAGE_PARAM)),
    size: oneOf(ALARM_LOG_PAGE_SIZES, params.get('size'), DEFAULT_ALARM_LOG_FILTERS.size),
  };
}

/** The URL of a changed log, keeping parameters that are not the log's (menu-type). */
export function writeAlarmLogFilters(current: URLSearchParams, filters: AlarmLogFilters): URLSearchParams {
  const params = new URLSearchParams(current);
  for (const key of PARAMS) params.delete(key);
  for (const [key, value] of Object.entries(apiParams(filters))) params.set(key, value);
  if (filters.size !== DEFAULT_ALARM_LOG_FILTERS.size) params.set('size', String(filters.size));
  if (filters.page > 1) params.set(PAGE_PARAM, String(filters.page));
  return params;
}

/** The filters the API takes, without paging. */
function apiParams(filters: AlarmLogFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.eventType) params.eventType = filters.eventType;
  if (filters.channel) params.channel = filters.channel;
  if (filters.status) params.status = filters.status;
  if (filters.siteId !== null) params.siteId = String(filters.siteId);
  if (filters.from) params.from = filters.from;
  if (filters.to) params.to = filters.to;
  if (filters.recipient.trim()) params.recipient = filters.recipient.trim();
  return params;
}

export function alarmLogQueryString(filters: AlarmLogFilters): string {
  return new URLSearchParams({
    ...apiParams(filters),
    page: String(filters.page),
    size: String(filters.size),
  }).toString();
}

export function alarmLogDownloadQueryString(filters: AlarmLogFilters, format: 'csv' | 'xlsx'): string {
  return new URLSearchParams({ ...apiParams(filters), format }).toString();
}
