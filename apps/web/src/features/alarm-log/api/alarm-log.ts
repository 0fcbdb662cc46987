import type { AlarmLogResponse } from '@cdms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import {
  type AlarmLogFilters,
  alarmLogDownloadQueryString,
  alarmLogQueryString,
} from '../lib/alarm-log-filters.ts';

/** The alarm log's reads (issue 18 item 4). The worker changes statuses all the time: read fresh. */

const logPath = (studyId: number) => `/api/studies/${studyId}/alarm-log`;

export function useAlarmLog(studyId: number, filters: AlarmLogFilters) {
  return useQuery({
    queryKey: ['alarm-log', studyId, filters] as const,
    queryFn: () => apiRequest<AlarmLogResponse>(`${logPath(studyId)}?${alarmLogQueryString(filters)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The log under its filters as a file (audited by the server). */
export async function downloadAlarmLog(
  studyId: number,
  filters: AlarmLogFilters,
  format: 'csv' | 'xlsx',
): Promise<void> {
  await saveDownload(
    `${logPath(studyId)}/download?${alarmLogDownloadQueryString(filters, format)}`,
    `alarm-log.${format}`,
  );
}
