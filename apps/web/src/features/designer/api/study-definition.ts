import type { StudyDefinition } from '@cdms/study';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import {
  type CurrentDefinition,
  definitionDocumentQueryKey,
  fetchDefinitionDocument,
  studyDefinitionQueryKey,
} from '../../../lib/study-definition.ts';

/** The current definition; null while the study has none yet (the server answers 404). */
export function useCurrentDefinition(studyId: number, enabled: boolean) {
  return useQuery({
    queryKey: definitionDocumentQueryKey(studyId),
    enabled,
    // The editor keeps its own copy: a background refetch must not look like someone else's edit.
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: () => fetchDefinitionDocument(studyId),
  });
}

/**
 * Saves the whole document (in design only); the cache then holds what was saved, and the forms drawn
 * from the definition elsewhere read it again.
 */
export function useSaveDefinition(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (definition: StudyDefinition) =>
      apiRequest<{ version: string; contentHash: string }>(`/api/studies/${studyId}/definition`, {
        method: 'PUT',
        body: definition,
      }),
    onSuccess: async (saved, definition) => {
      queryClient.setQueryData<CurrentDefinition>(definitionDocumentQueryKey(studyId), {
        studyId,
        ...saved,
        definition,
      });
      await queryClient.invalidateQueries({ queryKey: studyDefinitionQueryKey(studyId), exact: true });
    },
  });
}
