import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import {
  definitionDocumentQueryKey,
  fetchDefinitionDocument,
  studyDefinitionQueryKey,
} from '../../../lib/study-definition.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

/**
 * The current definition, asked for only when the study list says there is one (`hasDefinition`):
 * a study without one would answer 404. Null if it went missing in between.
 */
export function useStudyDefinition(studyId: number, hasDefinition: boolean) {
  return useQuery({
    queryKey: definitionDocumentQueryKey(studyId),
    enabled: hasDefinition,
    queryFn: () => fetchDefinitionDocument(studyId),
  });
}

/** Upload a definition document (already parsed from its file) while the study is in design. */
export function useUploadDefinition(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: unknown) =>
      apiRequest<{ version: string; contentHash: string }>(`/api/studies/${studyId}/definition`, {
        method: 'PUT',
        body: document,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: studyDefinitionQueryKey(studyId) });
      await queryClient.invalidateQueries({ queryKey: adminQueryKeys.studies });
    },
  });
}

/** An administrator of the study signs its go-live: password, and code with two-factor sign-in. */
export function useGoLive(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { password: string; code?: string }) =>
      apiRequest<{ status: 'active'; version: string; contentHash: string }>(
        `/api/studies/${studyId}/go-live`,
        { method: 'POST', body: credentials },
      ),
    // Every member now sees the study: their lists and `me` change.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
