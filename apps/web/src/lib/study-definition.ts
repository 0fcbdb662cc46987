import { getFormLayout, type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api-client.ts';

export interface CurrentStudyDefinition {
  studyId: number;
  version: string;
  definition: StudyDefinition;
}

/**
 * The study's current definition (GET /api/studies/{id}/definition), for every screen that draws
 * forms. It is checked with the same schema the server uses, so a definition the renderer cannot
 * read fails here, loudly, not half-way through a form.
 */
async function getStudyDefinition(studyId: number): Promise<CurrentStudyDefinition> {
  const response = await apiRequest<{ studyId: number; version: string; definition: unknown }>(
    `/api/studies/${studyId}/definition`,
  );
  return { ...response, definition: studyDefinitionSchema.parse(response.definition) };
}

/**
 * Every read of a study's definition sits under this key: an upload, an import or a designer's save
 * invalidates it, and the forms, the designer and the definition dialog all read the new version.
 */
export const studyDefinitionQueryKey = (studyId: number) => ['studies', studyId, 'definition'] as const;

export function useStudyDefinition(studyId: number) {
  return useQuery({
    queryKey: studyDefinitionQueryKey(studyId),
    queryFn: () => getStudyDefinition(studyId),
    // A definition changes only when an administrator publishes a new version.
    staleTime: 60 * 60 * 1000,
  });
}

/**
 * What a visit → form → item filter offers: the forms of the chosen visit, and the items of the
 * chosen form in it (none until both are chosen), so a form is picked within its visit and an item
 * within its form.
 */
export function visitFormItemChoices(
  definition: StudyDefinition | undefined,
  visitKey: string,
  formKey: string,
) {
  const visit = definition?.visits.find((candidate) => candidate.key === visitKey);
  const forms = (visit?.forms ?? [])
    .map((key) => definition?.forms.find((form) => form.key === key))
    .filter((form) => form !== undefined);
  const layout = definition && visitKey && formKey ? getFormLayout(definition, visitKey, formKey) : undefined;
  const items = layout ? [...layout.items.entries()] : [];
  return { forms, items };
}

/** The definition document as its designers edit it, with its content hash (the designer, the definition dialog). */
export interface CurrentDefinition {
  studyId: number;
  version: string;
  contentHash: string;
  definition: StudyDefinition;
}

/** The document's own key, under the definition's (whose invalidation reaches it). */
export const definitionDocumentQueryKey = (studyId: number) =>
  [...studyDefinitionQueryKey(studyId), 'document'] as const;

/** The current definition document; null while the study has none (the server answers 404). */
export async function fetchDefinitionDocument(studyId: number): Promise<CurrentDefinition | null> {
  try {
    return await apiRequest<CurrentDefinition>(`/api/studies/${studyId}/definition`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * One problem of a refused definition document: where (a JSON Pointer into it) and what, worded by
 * the server in the language the request asked for (error details carry one language).
 */
export interface DefinitionProblem {
  path: string;
  message: string;
}

/** The problems of a document refused as an invalid definition (422 `invalid_definition`), else none. */
export function definitionProblemsOf(error: unknown): DefinitionProblem[] {
  if (!(error instanceof ApiError) || error.code !== 'invalid_definition') return [];
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return [];
  return problems.filter(
    (problem): problem is DefinitionProblem =>
      typeof problem?.path === 'string' && typeof problem?.message === 'string',
  );
}
