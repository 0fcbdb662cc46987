import type { LabRange, LabRangeRequest, LabRangesResponse, LabResultsResponse } from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import {
  type LabResultFilters,
  labResultsDownloadQueryString,
  labResultsQueryString,
} from '../lib/lab-filters.ts';

/** The lab page's reads and writes (issue 17 item 3). Ranges and results move with others' work: read fresh. */

const studyPath = (studyId: number) => `/api/studies/${studyId}`;

export const labKeys = {
  all: (studyId: number) => ['lab', studyId] as const,
  ranges: (studyId: number, retired: boolean) => ['lab', studyId, 'ranges', retired] as const,
  results: (studyId: number, filters: LabResultFilters) => ['lab', studyId, 'results', filters] as const,
};

export function useLabRanges(studyId: number, retired: boolean) {
  return useQuery({
    queryKey: labKeys.ranges(studyId, retired),
    queryFn: () =>
      apiRequest<LabRangesResponse>(`${studyPath(studyId)}/lab-ranges${retired ? '?retired=true' : ''}`),
    staleTime: 0,
  });
}

export function useLabResults(studyId: number, filters: LabResultFilters) {
  return useQuery({
    queryKey: labKeys.results(studyId, filters),
    queryFn: () =>
      apiRequest<LabResultsResponse>(`${studyPath(studyId)}/lab-results?${labResultsQueryString(filters)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Add (no id) or change a range; every lab read is stale afterwards (flags follow the ranges). */
export function useSaveLabRange(studyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, request }: { id: number | null; request: LabRangeRequest }) =>
      apiRequest<LabRange>(
        id === null ? `${studyPath(studyId)}/lab-ranges` : `${studyPath(studyId)}/lab-ranges/${id}`,
        {
          method: id === null ? 'POST' : 'PUT',
          body: request,
        },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: labKeys.all(studyId) }),
  });
}

export function useRetireLabRange(studyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest<LabRange>(`${studyPath(studyId)}/lab-ranges/${id}/retire`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: labKeys.all(studyId) }),
  });
}

/** The listing under its filters as a file (audited by the server). */
export async function downloadLabResults(
  studyId: number,
  filters: LabResultFilters,
  format: 'csv' | 'xlsx',
): Promise<void> {
  await saveDownload(
    `${studyPath(studyId)}/lab-results/download?${labResultsDownloadQueryString(filters, format)}`,
    `lab-results.${format}`,
  );
}
