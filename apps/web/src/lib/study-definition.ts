import { getFormLayout, type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

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

export function useStudyDefinition(studyId: number) {
  return useQuery({
    queryKey: ['studies', studyId, 'definition'],
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
