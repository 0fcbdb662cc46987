import type { DashboardResponse } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { checkedWhenIdle } from '../../../lib/api-answer.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The dashboard's figures over the user's sites; `siteId` narrows the monthly chart. Live counts:
 * fetched again whenever the dashboard is opened (not kept fresh for the default hour), and the
 * figures on screen stay while another institution's chart loads.
 */
export function useDashboard(studyId: number, siteId: number | null) {
  return useQuery({
    queryKey: ['dashboard', studyId, siteId],
    queryFn: async (): Promise<DashboardResponse> => {
      const path = `/api/studies/${studyId}/dashboard${siteId === null ? '' : `?site=${siteId}`}`;
      // Checked once the page is there: the contract's schemas load apart (lib/api-answer.ts).
      return checkedWhenIdle(
        path,
        await apiRequest<unknown>(path),
        async () => (await import('../../../lib/answer-schemas.ts')).dashboardResponseSchema,
      );
    },
    staleTime: 0,
    // Another institution of the same study: keep the figures shown until the new ones arrive.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === studyId ? previous : undefined,
  });
}
