import { type SummaryResponse, summaryResponseSchema } from '@cdms/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The study summary over the reader's sites, or the one site chosen. It counts today's data, so it
 * is read again whenever the page is opened; the figures shown stay while another site's load.
 */
export function useSummaryFigures(studyId: number, siteId: number | null) {
  return useQuery({
    queryKey: ['summary', studyId, siteId],
    queryFn: async (): Promise<SummaryResponse> =>
      summaryResponseSchema.parse(
        await apiRequest<unknown>(
          `/api/studies/${studyId}/summary${siteId === null ? '' : `?siteId=${siteId}`}`,
        ),
      ),
    staleTime: 0,
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === studyId ? previous : undefined,
  });
}
