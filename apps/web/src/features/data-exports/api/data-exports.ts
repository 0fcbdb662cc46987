import type { DataExport, DataExportsResponse, StartDataExportRequest } from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** The /data page's reads and writes (issue 16): export jobs of the study. */

const exportsPath = (studyId: number) => `/api/studies/${studyId}/data-exports`;

/** How often the list is read again while an export on it is queued or running. */
export const EXPORT_POLL_MS = 1000;

export const dataExportKeys = {
  all: (studyId: number) => ['data-exports', studyId] as const,
  page: (studyId: number, page: number, size: number) => ['data-exports', studyId, page, size] as const,
};

export function isOpen(job: DataExport): boolean {
  return job.state === 'queued' || job.state === 'running';
}

export function useDataExports(studyId: number, page: number, size: number, enabled: boolean) {
  return useQuery({
    queryKey: dataExportKeys.page(studyId, page, size),
    queryFn: () => apiRequest<DataExportsResponse>(`${exportsPath(studyId)}?page=${page}&size=${size}`),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Progress moves on the server: read it again while something on the page is still running.
    refetchInterval: (query) => (query.state.data?.exports.some(isOpen) ? EXPORT_POLL_MS : false),
  });
}

export function useStartExport(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: StartDataExportRequest) =>
      apiRequest<DataExport>(exportsPath(studyId), { method: 'POST', body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dataExportKeys.all(studyId) }),
  });
}

export function useCancelExport(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (exportId: number) =>
      apiRequest<DataExport>(`${exportsPath(studyId)}/${exportId}/cancel`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dataExportKeys.all(studyId) }),
  });
}

/**
 * The finished file's address: a plain link, so the browser streams it to disk itself (no copy of
 * the whole file in the page's memory).
 */
export function downloadUrl(studyId: number, exportId: number): string {
  return `${exportsPath(studyId)}/${exportId}/download`;
}
