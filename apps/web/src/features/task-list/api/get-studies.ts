import { type StudySummary, studyListResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type StudyStatus = 'active' | 'ended';

export const studiesQueryKey = ['task-list', 'studies'] as const;
export const recentStudiesQueryKey = ['task-list', 'recent'] as const;

/** The user's studies of one status, filtered on the server by the header search (GET /api/studies). */
export function useStudies(status: StudyStatus, search: string) {
  return useQuery({
    queryKey: [...studiesQueryKey, status, search],
    queryFn: async (): Promise<StudySummary[]> => {
      const query = new URLSearchParams({ status });
      if (search) query.set('search', search);
      return studyListResponseSchema.parse(await apiRequest<unknown>(`/api/studies?${query}`)).studies;
    },
    // While a new search runs, keep the previous result on screen instead of flashing empty.
    placeholderData: (previous) => previous,
  });
}

/** The studies the user opened last, newest first (GET /api/studies/recent). */
export function useRecentStudies() {
  return useQuery({
    queryKey: recentStudiesQueryKey,
    queryFn: async (): Promise<StudySummary[]> =>
      studyListResponseSchema.parse(await apiRequest<unknown>('/api/studies/recent')).studies,
    // Opening a dashboard records a view; coming back should show it.
    staleTime: 0,
  });
}
