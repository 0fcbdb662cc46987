import { studyDefinitionSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { definitionProblemsOf } from './definition-problems.ts';
import { publishStudyDefinition } from './publish-study-definition.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/**
 * A designer uploads a study's definition document while the study is in design (issue 45 item 2).
 * The document is checked by the same zod schema the engine and the browser use: an invalid one is
 * refused (422 `invalid_definition`) with every problem listed — its place as a JSON Pointer, its
 * words in ko and en — and nothing is written. A valid one becomes the study's current version,
 * audited with its content hash (`publishStudyDefinition`).
 */
export async function replaceStudyDefinition(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  document: unknown,
): Promise<{ version: string; contentHash: string }> {
  await requireStudyInDesign(db, studyId);
  const parsed = studyDefinitionSchema.safeParse(document, { reportInput: true });
  if (!parsed.success) {
    const problems = definitionProblemsOf(parsed.error);
    throw new AppError(422, 'invalid_definition', { count: parsed.error.issues.length }, { problems });
  }
  // A study keeps its definition key from one version to the next: another key is another study's document.
  const current = await currentStudyDefinition(db, studyId);
  if (current && current.definition.key !== parsed.data.key)
    throw new AppError(422, 'definition_key_mismatch', {
      documentKey: parsed.data.key,
      studyKey: current.definition.key,
    });
  return publishStudyDefinition(db, actor, studyId, parsed.data, { replacingDraft: true });
}
