import type {
  DesignApprovalRequest,
  DesignDraftConflict,
  DesignDraftResponse,
  DesignReviewCommentRequest,
  SaveDesignDraftResponse,
} from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { studyDefinitionQueryKey } from '../../../lib/study-definition.ts';

const draftPath = (studyId: number) => `/api/studies/${studyId}/design-draft`;

/** The draft with its document. */
export function fetchDesignDraft(studyId: number): Promise<DesignDraftResponse> {
  return apiRequest<DesignDraftResponse>(`${draftPath(studyId)}?parts=all`);
}

/** The draft with its document: read once when the designer opens (the editor keeps its own copy). */
export function useDesignDraft(studyId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['studies', studyId, 'design-draft', 'document'],
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    // A reload of the page reads it again; a return to the page within the session as well.
    gcTime: 0,
    queryFn: () => fetchDesignDraft(studyId),
  });
}

export const draftActivityQueryKey = (studyId: number, language: string) =>
  ['studies', studyId, 'design-draft', 'activity', language] as const;

/** The draft's last saves and its review, without the document: read again after each save. */
export function useDraftActivity(studyId: number, language: 'ko' | 'en') {
  return useQuery({
    queryKey: draftActivityQueryKey(studyId, language),
    queryFn: () => apiRequest<DesignDraftResponse>(`${draftPath(studyId)}?parts=activity&lang=${language}`),
  });
}

/** A save of the draft as it is, on the revision it was made on. */
export function useSaveDraft(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { baseRevision: number; definition: StudyDefinition }) =>
      apiRequest<SaveDesignDraftResponse>(draftPath(studyId), { method: 'PUT', body }),
    onSuccess: () => invalidateActivity(queryClient, studyId),
  });
}

/** The draft's revision published as the study's current version. */
export function usePublishDraft(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (revision: number) =>
      apiRequest<{ version: string; contentHash: string }>(`${draftPath(studyId)}/publish`, {
        method: 'POST',
        body: { revision },
      }),
    onSuccess: async () => {
      await invalidateActivity(queryClient, studyId);
      await queryClient.invalidateQueries({ queryKey: studyDefinitionQueryKey(studyId) });
    },
  });
}

export function useRequestReview(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (revision: number) =>
      apiRequest<{ reviewId: number }>(`${draftPath(studyId)}/reviews`, {
        method: 'POST',
        body: { revision },
      }),
    onSuccess: () => invalidateActivity(queryClient, studyId),
  });
}

export function useCommentOnReview(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, ...body }: DesignReviewCommentRequest & { reviewId: number }) =>
      apiRequest<{ commentId: number }>(`${draftPath(studyId)}/reviews/${reviewId}/comments`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => invalidateActivity(queryClient, studyId),
  });
}

export function useApproveDraft(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, ...body }: DesignApprovalRequest & { reviewId: number }) =>
      apiRequest<{ revision: number; contentHash: string }>(
        `${draftPath(studyId)}/reviews/${reviewId}/approval`,
        {
          method: 'POST',
          body,
        },
      ),
    onSuccess: () => invalidateActivity(queryClient, studyId),
  });
}

export function useChangeApprovalSetting(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (approvalRequired: boolean) =>
      apiRequest<{ approvalRequired: boolean }>(`/api/studies/${studyId}/design-settings`, {
        method: 'PUT',
        body: { approvalRequired },
      }),
    onSuccess: () => invalidateActivity(queryClient, studyId),
  });
}

function invalidateActivity(queryClient: ReturnType<typeof useQueryClient>, studyId: number) {
  return queryClient.invalidateQueries({ queryKey: ['studies', studyId, 'design-draft', 'activity'] });
}

/** The details of a save refused because someone saved the draft since (409 `design_draft_changed`). */
export function draftConflictOf(error: unknown): { message: string; conflict: DesignDraftConflict } | null {
  if (!(error instanceof ApiError) || error.code !== 'design_draft_changed') return null;
  const details = error.details as DesignDraftConflict | undefined;
  if (!details || typeof details.revision !== 'number') return null;
  return { message: error.message, conflict: details };
}
