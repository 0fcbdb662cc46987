import { type ReportResponse, reportResponseSchema } from '@cdms/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import { type ReportFilters, reportQueryString } from '../lib/report-filters.ts';

const reportPath = (studyId: number, filters: ReportFilters) =>
  `/api/studies/${studyId}/reports/${filters.report}`;

/**
 * One report over the reader's sites. Reports count today's data, so they are read again whenever
 * the page is opened; the report shown stays while the next page of the same report loads.
 */
export function useReport(studyId: number, filters: ReportFilters) {
  return useQuery({
    queryKey: ['report', studyId, filters],
    queryFn: async (): Promise<ReportResponse> =>
      reportResponseSchema.parse(
        await apiRequest<unknown>(`${reportPath(studyId, filters)}?${reportQueryString(filters)}`),
      ),
    staleTime: 0,
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[2] as ReportFilters | undefined;
      return previousQuery?.queryKey[1] === studyId && before?.report === filters.report
        ? previous
        : undefined;
    },
  });
}

export async function downloadReport(
  studyId: number,
  filters: ReportFilters,
  format: 'csv' | 'xlsx',
): Promise<void> {
  await saveDownload(
    `${reportPath(studyId, filters)}/download?${reportQueryString(filters, format)}`,
    `${filters.report}.${format}`,
  );
}

/** A site's enrollment target (DM, ADMIN: `enrollment.plan`), or null for the study's default. */
export function useSetEnrollmentTarget(studyId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ siteId, target }: { siteId: number; target: number | null }) =>
      apiRequest<unknown>(`/api/studies/${studyId}/sites/${siteId}/enrollment-target`, {
        method: 'PUT',
        body: { target },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['report', studyId] }),
  });
}
