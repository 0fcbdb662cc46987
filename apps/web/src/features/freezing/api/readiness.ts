import type { ReadinessSitesResponse, ReadinessSubjectsResponse } from '@cdms/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type ReadinessFilters, readinessQueryString } from '../lib/readiness-filters.ts';

/**
 * The readiness board's reads (issue 15). Every query, signature, SDV mark and hold moves them, so
 * they are read fresh whenever the board is shown (the writes elsewhere invalidate `['freezing', id]`).
 */
export const readinessKeys = {
  all: (studyId: number) => ['freezing', studyId] as const,
  sites: (studyId: number) => ['freezing', studyId, 'sites'] as const,
  subjects: (studyId: number, filters: ReadinessFilters) =>
    ['freezing', studyId, 'subjects', filters] as const,
};

const readinessPath = (studyId: number) => `/api/studies/${studyId}/readiness`;

export function useReadinessSites(studyId: number) {
  return useQuery({
    queryKey: readinessKeys.sites(studyId),
    queryFn: () => apiRequest<ReadinessSitesResponse>(`${readinessPath(studyId)}/sites`),
    staleTime: 0,
  });
}

export function useReadinessSubjects(studyId: number, filters: ReadinessFilters) {
  return useQuery({
    queryKey: readinessKeys.subjects(studyId, filters),
    queryFn: () =>
      apiRequest<ReadinessSubjectsResponse>(
        `${readinessPath(studyId)}/subjects?${readinessQueryString(filters)}`,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
