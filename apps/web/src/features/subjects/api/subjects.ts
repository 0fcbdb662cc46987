import type { CreateSubjectRequest, OverviewResponse, SubjectSummary } from '@cdms/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { subjectKeys, subjectPath } from './subject-query-keys.ts';

/** The subjects of the user's sites in the study (the server filters by scope). */
export function useSubjects(studyId: number) {
  return useQuery({
    queryKey: subjectKeys.list(studyId),
    queryFn: async () =>
      (await apiRequest<{ subjects: SubjectSummary[] }>(`/api/studies/${studyId}/subjects`)).subjects,
  });
}

export function useCreateSubject(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateSubjectRequest) =>
      apiRequest<SubjectSummary>(`/api/studies/${studyId}/subjects`, { method: 'POST', body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subjectKeys.list(studyId) }),
  });
}

/** The visit × form status matrix of one subject. */
export function useSubjectOverview(studyId: number, subjectPk: number | null) {
  return useQuery({
    queryKey: subjectKeys.overview(studyId, subjectPk ?? 0),
    queryFn: () => apiRequest<OverviewResponse>(`${subjectPath(studyId, subjectPk ?? 0)}/overview`),
    enabled: subjectPk !== null,
  });
}
