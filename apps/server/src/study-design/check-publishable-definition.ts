import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { definitionProblemsOf } from './definition-problems.ts';

/**
 * What a document must be to become a study's version, whether uploaded or published from the
 * designer's draft: valid by the same zod schema the engine and the browser use (else 422
 * `invalid_definition` with every problem — its place as a JSON Pointer, its words in ko and en), and
 * of the study's own definition key (a study keeps it from one version to the next: another key is
 * another study's document, 422 `definition_key_mismatch`).
 */
export async function checkPublishableDefinition(
  db: Kysely<Database>,
  studyId: number,
  document: unknown,
): Promise<StudyDefinition> {
  const parsed = studyDefinitionSchema.safeParse(document, { reportInput: true });
  if (!parsed.success) {
    const problems = definitionProblemsOf(parsed.error);
    throw new AppError(422, 'invalid_definition', { count: parsed.error.issues.length }, { problems });
  }
  const current = await currentStudyDefinition(db, studyId);
  if (current && current.definition.key !== parsed.data.key)
    throw new AppError(422, 'definition_key_mismatch', {
      documentKey: parsed.data.key,
      studyKey: current.definition.key,
    });
  return parsed.data;
}
