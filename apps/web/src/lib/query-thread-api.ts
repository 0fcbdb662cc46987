import type {
  AnswerQueryRequest,
  CancelQueryRequest,
  CloseQueryRequest,
  CommentQueryRequest,
  CreateQueryRequest,
  QueryDetail,
  ReopenQueryRequest,
} from '@cdms/contract';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * One query and its thread (issue 14), for every screen that shows it: the form's item panel and the
 * query list. Shared here because the subjects and queries features may not import each other.
 */

export const queryKeys = {
  all: (studyId: number) => ['queries', studyId] as const,
  list: (studyId: number) => ['queries', studyId, 'list'] as const,
  detail: (studyId: number, queryId: number) => ['queries', studyId, 'detail', queryId] as const,
};

export const queriesPath = (studyId: number) => `/api/studies/${studyId}/queries`;

/**
 * After any query action every figure that counts queries may have moved: the form (badges, notes),
 * the subject's overview matrix (alert icon), the subject list (unresolved count), the dashboard's
 * query table, the header's subject-info popup and the query list. Their keys are named literally:
 * they belong to features this module may not import.
 */
export function invalidateQueryViews(queryClient: QueryClient, studyId: number): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['subjects', studyId] }),
    queryClient.invalidateQueries({ queryKey: ['dashboard', studyId] }),
    queryClient.invalidateQueries({ queryKey: ['shell', 'subject-info', studyId] }),
    queryClient.invalidateQueries({ queryKey: queryKeys.all(studyId) }),
    // The readiness board counts open and answered queries (issue 15).
    queryClient.invalidateQueries({ queryKey: ['freezing', studyId] }),
  ]);
}

export function useQueryDetail(studyId: number, queryId: number | null) {
  return useQuery({
    queryKey: queryKeys.detail(studyId, queryId ?? 0),
    queryFn: () => apiRequest<QueryDetail>(`${queriesPath(studyId)}/${queryId}`),
    enabled: queryId !== null,
    // A thread moves with other people's answers: read it fresh each time it opens.
    staleTime: 0,
  });
}

export type QueryActionInput =
  | { action: 'answer'; body: AnswerQueryRequest }
  | { action: 'comment'; body: CommentQueryRequest }
  | { action: 'close'; body: CloseQueryRequest }
  | { action: 'cancel'; body: CancelQueryRequest }
  | { action: 'reopen'; body: ReopenQueryRequest };

/** Answer, comment, close, cancel or reopen one query; the answer is the query as it now stands. */
export function useQueryAction(studyId: number, queryId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, body }: QueryActionInput) =>
      apiRequest<QueryDetail>(`${queriesPath(studyId)}/${queryId}/${action}`, { method: 'POST', body }),
    onSuccess: (detail) => {
      queryClient.setQueryData(queryKeys.detail(studyId, detail.id), detail);
      return invalidateQueryViews(queryClient, studyId);
    },
  });
}

/** A monitor raises a manual query on an item (or the whole form). */
export function useCreateQuery(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateQueryRequest) =>
      apiRequest<QueryDetail>(queriesPath(studyId), { method: 'POST', body: request }),
    onSuccess: (detail) => {
      queryClient.setQueryData(queryKeys.detail(studyId, detail.id), detail);
      return invalidateQueryViews(queryClient, studyId);
    },
  });
}
