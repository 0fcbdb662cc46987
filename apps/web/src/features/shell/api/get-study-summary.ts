import { type StudySummary, studyListResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * One of the user's studies with its description (the subject-info popup shows it). The server
 * has no single-study endpoint yet: the user's list of that status holds it.
 */
export function useStudySummary(studyId: number, status: 'active' | 'ended') {
  return useQuery({
    queryKey: ['shell', 'studies', status],
    queryFn: async () =>
      studyListResponseSchema.parse(await apiRequest<unknown>(`/api/studies?status=${status}`)).studies,
    select: (studies): StudySummary | null => studies.find((study) => study.id === studyId) ?? null,
  });
}
