import type { SubjectInfoResponse } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { checkedWhenIdle } from '../../../lib/api-answer.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The subject-info popup's counts over the user's sites (open and answered queries, SAEs, eCRF
 * pages, visit alarms). Live figures: fetched again each time the popup opens.
 */
export function useSubjectInfo(studyId: number) {
  return useQuery({
    queryKey: ['shell', 'subject-info', studyId],
    queryFn: async (): Promise<SubjectInfoResponse> => {
      const path = `/api/studies/${studyId}/subject-info`;
      // Checked once the page is there: the contract's schemas load apart (lib/api-answer.ts).
      return checkedWhenIdle(
        path,
        await apiRequest<unknown>(path),
        async () => (await import('../../../lib/answer-schemas.ts')).subjectInfoResponseSchema,
      );
    },
    staleTime: 0,
  });
}
