import type { StudyStatus, StudySummary } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { checkedWhenIdle } from '../../../lib/api-answer.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * One of the user's studies with its description (the subject-info popup shows it). The server
 * has no single-study endpoint yet: the user's list of that status holds it.
 */
export function useStudySummary(studyId: number, studyStatus: StudyStatus) {
  // The work list (`active`) holds the studies in design as well.
  const status = studyStatus === 'ended' ? 'ended' : 'active';
  return useQuery({
    queryKey: ['shell', 'studies', status],
    queryFn: async () => {
      const path = `/api/studies?status=${status}`;
      // Checked once the page is there: the contract's schemas load apart (lib/api-answer.ts).
      return checkedWhenIdle(
        path,
        await apiRequest<unknown>(path),
        async () => (await import('../../../lib/answer-schemas.ts')).studyListResponseSchema,
      ).studies;
    },
    select: (studies): StudySummary | null => studies.find((study) => study.id === studyId) ?? null,
  });
}
