import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { subjectKeys } from './subject-query-keys.ts';

export interface StudyDefinitionResponse {
  studyId: number;
  version: string;
  definition: StudyDefinition;
}

/** The study's current definition, checked with the schema the server uses (a bad one fails here, loudly). */
async function fetchStudyDefinition(studyId: number): Promise<StudyDefinitionResponse> {
  const response = await apiRequest<{ studyId: number; version: string; definition: unknown }>(
    `/api/studies/${studyId}/definition`,
  );
  return { ...response, definition: studyDefinitionSchema.parse(response.definition) };
}

export function useStudyDefinition(studyId: number) {
  return useQuery({
    queryKey: subjectKeys.definition(studyId),
    queryFn: () => fetchStudyDefinition(studyId),
    // A definition changes only when an administrator publishes a new version.
    staleTime: 60 * 60 * 1000,
  });
}
