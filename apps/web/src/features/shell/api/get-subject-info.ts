import { type SubjectInfoResponse, subjectInfoResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The subject-info popup's counts over the user's sites (open and answered queries, SAEs, eCRF
 * pages, visit alarms). Live figures: fetched again each time the popup opens.
 */
export function useSubjectInfo(studyId: number) {
  return useQuery({
    queryKey: ['shell', 'subject-info', studyId],
    queryFn: async (): Promise<SubjectInfoResponse> =>
      subjectInfoResponseSchema.parse(await apiRequest<unknown>(`/api/studies/${studyId}/subject-info`)),
    staleTime: 0,
  });
}
