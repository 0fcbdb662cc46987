import type {
  DefinitionImportConfirm,
  DefinitionImportPreview,
  DefinitionImportRequest,
} from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { studyDefinitionQueryKey } from '../../../lib/study-definition.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

/** What a design file would create and change in the study (nothing is written). */
export function usePreviewDefinitionImport(studyId: number) {
  return useMutation({
    mutationFn: (request: DefinitionImportRequest) =>
      apiRequest<DefinitionImportPreview>(`/api/studies/${studyId}/definition-imports/preview`, {
        method: 'POST',
        body: request,
      }),
  });
}

/** The previewed file confirmed: it becomes the study's current version. */
export function useConfirmDefinitionImport(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: DefinitionImportConfirm) =>
      apiRequest<{ version: string; contentHash: string }>(`/api/studies/${studyId}/definition-imports`, {
        method: 'POST',
        body: request,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: studyDefinitionQueryKey(studyId) });
      await queryClient.invalidateQueries({ queryKey: adminQueryKeys.studies });
    },
  });
}
