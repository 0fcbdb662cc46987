import type { GuidelineDetail, GuidelineListResponse, GuidelineUpdate, GuidelineWrite } from '@cdms/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type GuidelineFilters, guidelineListQueryString } from '../lib/guideline-filters.ts';

export const guidelineQueryKeys = {
  study: (studyId: number) => ['guidelines', studyId] as const,
  list: (studyId: number, filters: GuidelineFilters) =>
    ['guidelines', studyId, 'list', { ...filters }] as const,
  detail: (studyId: number, guidelineId: number) => ['guidelines', studyId, 'detail', guidelineId] as const,
};

/** A page of the study's guidelines (readers: published only); the previous page stays while the next loads. */
export function useGuidelines(studyId: number, filters: GuidelineFilters) {
  return useQuery({
    queryKey: guidelineQueryKeys.list(studyId, filters),
    queryFn: () =>
      apiRequest<GuidelineListResponse>(
        `/api/studies/${studyId}/guidelines?${guidelineListQueryString(filters)}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useGuideline(studyId: number, guidelineId: number) {
  return useQuery({
    queryKey: guidelineQueryKeys.detail(studyId, guidelineId),
    queryFn: () => apiRequest<GuidelineDetail>(`/api/studies/${studyId}/guidelines/${guidelineId}`),
  });
}

type GuidelineCommand =
  | { kind: 'create'; studyId: number; input: GuidelineWrite }
  | { kind: 'update'; studyId: number; guidelineId: number; input: GuidelineUpdate }
  | { kind: 'publish' | 'retire'; studyId: number; guidelineId: number }
  | { kind: 'revise'; studyId: number; guidelineId: number; version: string };

function sendCommand(command: GuidelineCommand): Promise<GuidelineDetail> {
  const base = `/api/studies/${command.studyId}/guidelines`;
  switch (command.kind) {
    case 'create':
      return apiRequest(base, { method: 'POST', body: command.input });
    case 'update':
      return apiRequest(`${base}/${command.guidelineId}`, { method: 'PUT', body: command.input });
    case 'publish':
    case 'retire':
      return apiRequest(`${base}/${command.guidelineId}/${command.kind}`, { method: 'POST' });
    case 'revise':
      return apiRequest(`${base}/${command.guidelineId}/revisions`, {
        method: 'POST',
        body: { version: command.version },
      });
  }
}

/** Every write of a guideline; the study's guideline queries are read again afterwards. */
export function useGuidelineCommand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendCommand,
    onSuccess: (guideline, command) => {
      queryClient.setQueryData(guidelineQueryKeys.detail(command.studyId, guideline.id), guideline);
      return queryClient.invalidateQueries({ queryKey: guidelineQueryKeys.study(command.studyId) });
    },
  });
}

/**
 * Discards a draft. The study's guideline queries are only marked stale: the open page of the deleted
 * draft must not ask for it again; the list the user goes to next reads afresh when it mounts.
 */
export function useDeleteGuideline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ studyId, guidelineId }: { studyId: number; guidelineId: number }) =>
      apiRequest<void>(`/api/studies/${studyId}/guidelines/${guidelineId}`, { method: 'DELETE' }),
    onSuccess: (_nothing, { studyId }) =>
      queryClient.invalidateQueries({ queryKey: guidelineQueryKeys.study(studyId), refetchType: 'none' }),
  });
}
