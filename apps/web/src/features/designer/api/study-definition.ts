import type { LocalizedText, StudyDefinition } from '@cdms/study';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';

/** The study's current definition (GET /api/studies/:studyId/definition). */
export interface CurrentDefinition {
  studyId: number;
  version: string;
  contentHash: string;
  definition: StudyDefinition;
}

/**
 * One problem of a refused save: where (a JSON Pointer into the document) and what. The server words
 * it in the language the request asked for; a message in both languages is taken too.
 */
export interface DefinitionProblem {
  path: string;
  message: string | LocalizedText;
}

const definitionKey = (studyId: number) => ['designer', studyId, 'definition'] as const;
const definitionPath = (studyId: number) => `/api/studies/${studyId}/definition`;

/** The current definition; null while the study has none yet (the server answers 404). */
export function useCurrentDefinition(studyId: number, enabled: boolean) {
  return useQuery({
    queryKey: definitionKey(studyId),
    enabled,
    // The editor keeps its own copy: a background refetch must not look like someone else's edit.
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<CurrentDefinition | null> => {
      try {
        return await apiRequest<CurrentDefinition>(definitionPath(studyId));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** Saves the whole document (in design only); the cache then holds what was saved. */
export function useSaveDefinition(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (definition: StudyDefinition) =>
      apiRequest<{ version: string; contentHash: string }>(definitionPath(studyId), {
        method: 'PUT',
        body: definition,
      }),
    onSuccess: (saved, definition) =>
      queryClient.setQueryData<CurrentDefinition>(definitionKey(studyId), { studyId, ...saved, definition }),
  });
}

/** The problems of a save refused as an invalid definition (422), else none. */
export function definitionProblemsOf(error: unknown): DefinitionProblem[] {
  if (!(error instanceof ApiError) || error.code !== 'invalid_definition') return [];
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return [];
  return problems.filter(
    (problem): problem is DefinitionProblem =>
      typeof problem?.path === 'string' &&
      (typeof problem?.message === 'string' || typeof problem?.message?.ko === 'string'),
  );
}
