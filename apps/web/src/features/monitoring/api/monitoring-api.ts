import type {
  MonitoringResponse,
  RaiseSignalQueriesResponse,
  SaveToleranceLimitsRequest,
  SignalListResponse,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { invalidateQueryViews } from '../../../lib/query-thread-api.ts';
import { type SignalFilters, signalListQueryString } from '../lib/signal-filters.ts';
import { base, monitoringKeys, pollWhileRunning } from './monitoring-run.ts';

/**
 * Central monitoring's reads and writes (issue 50), under `/api/studies/:id/monitoring`. The results
 * are precomputed by a background run; while one is queued or running the reads are asked again every
 * few seconds, so the progress moves and the new figures appear when it is done.
 */

export function useMonitoring(studyId: number) {
  return useQuery({
    queryKey: monitoringKeys.page(studyId),
    queryFn: () => apiRequest<MonitoringResponse>(base(studyId)),
    staleTime: 0,
    refetchInterval: (query) => pollWhileRunning(query.state.data),
  });
}

export function useSignals(studyId: number, filters: SignalFilters, enabled: boolean) {
  return useQuery({
    queryKey: monitoringKeys.signals(studyId, filters),
    queryFn: () =>
      apiRequest<SignalListResponse>(`${base(studyId)}/signals?${signalListQueryString(filters)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

/** After any write every monitoring read is stale (counts, states, the panel's top signals). */
function useMonitoringWrite<Input, Output>(studyId: number, send: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: monitoringKeys.all(studyId) });
    },
  });
}

/** One query per item and subject the signal names, one text; the query list is stale too. */
export function useRaiseSignalQueries(studyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ signalId, text }: { signalId: number; text: string }) =>
      apiRequest<RaiseSignalQueriesResponse>(`${base(studyId)}/signals/${signalId}/queries`, {
        method: 'POST',
        body: { text },
      }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: monitoringKeys.all(studyId) }),
        // The query list, the dashboard's counts and the subject views show the new queries.
        invalidateQueryViews(client, studyId),
      ]);
    },
  });
}

export function useNoteSignal(studyId: number) {
  return useMonitoringWrite(studyId, ({ signalId, text }: { signalId: number; text: string }) =>
    apiRequest<unknown>(`${base(studyId)}/signals/${signalId}/note`, { method: 'POST', body: { text } }),
  );
}

export function useDismissSignal(studyId: number) {
  return useMonitoringWrite(studyId, ({ signalId, reason }: { signalId: number; reason: string }) =>
    apiRequest<unknown>(`${base(studyId)}/signals/${signalId}/dismiss`, { method: 'POST', body: { reason } }),
  );
}

export function useSaveToleranceLimits(studyId: number) {
  return useMonitoringWrite(studyId, (request: SaveToleranceLimitsRequest) =>
    apiRequest<unknown>(`${base(studyId)}/tolerance-limits`, { method: 'PUT', body: request }),
  );
}

export function useStartRun(studyId: number) {
  return useMonitoringWrite(studyId, () => apiRequest<unknown>(`${base(studyId)}/runs`, { method: 'POST' }));
}
