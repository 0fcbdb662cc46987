import type { MonitoringPanelResponse } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { base, monitoringKeys, pollWhileRunning } from './monitoring-run.ts';

/** The dashboard panel's read (`GET …/monitoring/panel`), asked again while a run is under way. */
export function useMonitoringPanel(studyId: number) {
  return useQuery({
    queryKey: monitoringKeys.panel(studyId),
    queryFn: () => apiRequest<MonitoringPanelResponse>(`${base(studyId)}/panel`),
    staleTime: 0,
    refetchInterval: (query) => pollWhileRunning(query.state.data),
  });
}
