import type {
  BulkRaiseQueriesRequest,
  BulkRaiseQueriesResponse,
  ReviewListingResponse,
  ReviewMarkResponse,
  ReviewTablesResponse,
} from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import { invalidateQueryViews } from '../../../lib/query-thread-api.ts';
import {
  type ReviewListingFilters,
  reviewListingExportQueryString,
  reviewListingQueryString,
} from '../lib/review-listing-filters.ts';

/** Review listings' reads and writes (issue 50 item 4). */

const listingsPath = (studyId: number) => `/api/studies/${studyId}/review-listings`;
const tablePath = (studyId: number, table: string) => `${listingsPath(studyId)}/${encodeURIComponent(table)}`;

export function useReviewTables(studyId: number) {
  return useQuery({
    queryKey: ['review-listings', studyId, 'tables'] as const,
    queryFn: () => apiRequest<ReviewTablesResponse>(listingsPath(studyId)),
  });
}

/** A page of a listing; its cells are labels in the reader's language, so the language is in the key. */
export function useReviewListing(studyId: number, filters: ReviewListingFilters) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['review-listings', studyId, 'rows', filters, i18n.language] as const,
    queryFn: () =>
      apiRequest<ReviewListingResponse>(
        `${tablePath(studyId, filters.table)}?${reviewListingQueryString(filters)}`,
      ),
    enabled: filters.table !== '',
    placeholderData: keepPreviousData,
  });
}

export function useMarkReviewed(studyId: number, table: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (formInstanceIds: number[]) =>
      apiRequest<ReviewMarkResponse>(`${tablePath(studyId, table)}/review`, {
        method: 'POST',
        body: { formInstanceIds },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['review-listings', studyId] }),
  });
}

export function useRaiseBulkQueries(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BulkRaiseQueriesRequest) =>
      apiRequest<BulkRaiseQueriesResponse>(`${listingsPath(studyId)}/bulk-queries`, {
        method: 'POST',
        body: request,
      }),
    // The query list, the subject's forms and the dashboard count the new queries.
    onSuccess: async () => {
      await invalidateQueryViews(queryClient, studyId);
      await queryClient.invalidateQueries({ queryKey: ['review-listings', studyId] });
    },
  });
}

/** The listing under its filters, the columns shown, as a file (audited by the server). */
export async function downloadReviewListing(
  studyId: number,
  filters: ReviewListingFilters,
  columns: readonly string[],
  format: 'csv' | 'xlsx',
): Promise<void> {
  await saveDownload(
    `${tablePath(studyId, filters.table)}/export?${reviewListingExportQueryString(filters, columns, format)}`,
    `review-${filters.table}.${format}`,
  );
}
