import type {
  ChangeSaeAwarenessRequest,
  SaeContent,
  SaeListResponse,
  SaeReport,
  SubmitSaeReportRequest,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type SaeFilters, saeListQueryString } from '../lib/sae-filters.ts';

/** SAE reports' reads and writes (issue 51 item 1), under `/api/studies/:id/sae-reports`. */

const base = (studyId: number) => `/api/studies/${studyId}/sae-reports`;
const one = (studyId: number, reportId: number) => `${base(studyId)}/${reportId}`;
export const saeKeys = {
  all: (studyId: number) => ['sae-reports', studyId] as const,
  list: (studyId: number, filters: SaeFilters) => ['sae-reports', studyId, 'list', filters] as const,
  report: (studyId: number, reportId: number) => ['sae-reports', studyId, 'report', reportId] as const,
};

export function useSaeReports(studyId: number, filters: SaeFilters) {
  return useQuery({
    queryKey: saeKeys.list(studyId, filters),
    queryFn: () => apiRequest<SaeListResponse>(`${base(studyId)}?${saeListQueryString(filters)}`),
    placeholderData: keepPreviousData,
    // The clock moves: read again every minute.
    refetchInterval: 60_000,
  });
}

export function useSaeReport(studyId: number, reportId: number) {
  return useQuery({
    queryKey: saeKeys.report(studyId, reportId),
    queryFn: () => apiRequest<SaeReport>(one(studyId, reportId)),
  });
}

/** The writes of one report: each answers the report as it is now, which replaces the cached one. */
function useReportWrite<Input>(
  studyId: number,
  reportId: number,
  send: (input: Input) => Promise<SaeReport>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (report) => {
      queryClient.setQueryData(saeKeys.report(studyId, reportId), report);
      void queryClient.invalidateQueries({ queryKey: [...saeKeys.all(studyId), 'list'] });
    },
  });
}

export function useSaveSaeDraft(studyId: number, reportId: number) {
  return useReportWrite(studyId, reportId, (input: { rowVersion: number; content: SaeContent }) =>
    apiRequest<SaeReport>(`${one(studyId, reportId)}/draft`, { method: 'PUT', body: input }),
  );
}

export function useChangeSaeAwareness(studyId: number, reportId: number) {
  return useReportWrite(studyId, reportId, (input: ChangeSaeAwarenessRequest) =>
    apiRequest<SaeReport>(`${one(studyId, reportId)}/awareness`, { method: 'PUT', body: input }),
  );
}

export function useSubmitSaeReport(studyId: number, reportId: number) {
  return useReportWrite(studyId, reportId, (input: SubmitSaeReportRequest) =>
    apiRequest<SaeReport>(`${one(studyId, reportId)}/submission`, { method: 'POST', body: input }),
  );
}

export function useStartSaeFollowUp(studyId: number, reportId: number) {
  return useReportWrite(studyId, reportId, (input: { rowVersion: number }) =>
    apiRequest<SaeReport>(`${one(studyId, reportId)}/follow-ups`, { method: 'POST', body: input }),
  );
}

export function useAcknowledgeSaeReport(studyId: number, reportId: number) {
  return useReportWrite(studyId, reportId, (input: { rowVersion: number }) =>
    apiRequest<SaeReport>(`${one(studyId, reportId)}/acknowledgement`, { method: 'POST', body: input }),
  );
}
