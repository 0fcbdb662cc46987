import type { BulkQueryRequest, BulkQueryResponse, QueryListResponse } from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, saveDownload } from '../../../lib/api-client.ts';
import { invalidateQueryViews, queriesPath, queryKeys } from '../../../lib/query-thread-api.ts';
import { type QueryListFilters, queryListQueryString } from '../lib/query-list-filters.ts';

/** One page of the query list: filtered, sorted and counted by the server. */
export function useQueryList(studyId: number, filters: QueryListFilters) {
  return useQuery({
    queryKey: [...queryKeys.list(studyId), filters],
    queryFn: () => apiRequest<QueryListResponse>(`${queriesPath(studyId)}?${queryListQueryString(filters)}`),
    placeholderData: keepPreviousData,
    // Queries move with other people's answers: the list is read fresh whenever it is shown.
    staleTime: 0,
  });
}

/** Close or cancel many queries with one reason: all or nothing (409 naming the refused ones). */
export function useBulkQueryAction(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BulkQueryRequest) =>
      apiRequest<BulkQueryResponse>(`${queriesPath(studyId)}/bulk`, { method: 'POST', body: request }),
    onSuccess: () => invalidateQueryViews(queryClient, studyId),
  });
}

export type QueryExportFormat = 'csv' | 'xlsx';

/** Downloads every query the filters select, as CSV or XLSX, in the user's language. */
export async function downloadQueryList(
  studyId: number,
  filters: QueryListFilters,
  format: QueryExportFormat,
): Promise<void> {
  const url = `${queriesPath(studyId)}/export?format=${format}&${queryListQueryString(filters, false)}`;
  await saveDownload(url, `queries.${format}`);
}
