import {
  ALARM_LOG_PAGE_SIZES,
  type AlarmLogStatus,
  alarmLogStatuses,
  type NotificationChannel,
  type NotificationEventType,
  notificationChannels,
  notificationEventTypes,
} from '@cdms/contract';
import { defineListParams, param, periodInOrder } from '../../../lib/list-state.ts';

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

/** Defaults left out of the URL. */
export const alarmLogListParams = defineListParams<AlarmLogFilters>(
  {
    eventType: param.oneOf<NotificationEventType | ''>(['', ...notificationEventTypes], ''),
    channel: param.oneOf<NotificationChannel | ''>(['', ...notificationChannels], ''),
    status: param.oneOf<AlarmLogStatus | ''>(['', ...alarmLogStatuses], ''),
    siteId: param.id(),
    from: param.date(),
    to: param.date(),
    recipient: param.text(),
    size: param.oneOf(ALARM_LOG_PAGE_SIZES, 20),
    page: param.page(),
  },
  periodInOrder,
);

export const DEFAULT_ALARM_LOG_FILTERS: AlarmLogFilters = alarmLogListParams.read(new URLSearchParams());

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
