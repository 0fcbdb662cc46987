import { type VisitAlarmListResponse, visitAlarmListResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type AlarmFilters, alarmQueryString } from '../lib/alarm-filters.ts';

/**
 * One page of subject alarms over the user's sites. Computed from today's date and the latest
 * visit data, so fetched again whenever the page is opened; the page shown stays while the next loads.
 */
export function useVisitAlarms(studyId: number, filters: AlarmFilters, page: number) {
  return useQuery({
    queryKey: ['visit-alarms', studyId, filters, page],
    queryFn: async (): Promise<VisitAlarmListResponse> =>
      visitAlarmListResponseSchema.parse(
        await apiRequest<unknown>(`/api/studies/${studyId}/visit-alarms?${alarmQueryString(filters, page)}`),
      ),
    staleTime: 0,
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === studyId ? previous : undefined,
  });
}
