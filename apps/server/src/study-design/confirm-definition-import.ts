import type { DefinitionImportConfirm } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { publishStudyDefinition } from './publish-study-definition.ts';
import { readDefinitionImport } from './read-definition-import.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/**
 * `POST …/definition-imports`: the designer confirms a previewed import while the study is in
 * design. The file is read again, as the preview read it; an import with an error is refused with
 * its problems (422 `invalid_definition_import`), and one whose result is not what the preview
 * showed (the study's version changed meanwhile, another file) with 409 `definition_import_changed`.
 * Then it becomes the study's current version like an uploaded document (`publishStudyDefinition`).
 */
export async function confirmDefinitionImport(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  request: DefinitionImportConfirm,
): Promise<{ version: string; contentHash: string }> {
  await requireStudyInDesign(db, studyId);
  const { definition, problems } = await readDefinitionImport(db, studyId, request);
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (!definition || errors.length > 0)
    throw new AppError(422, 'invalid_definition_import', { count: errors.length }, { problems: errors });
  if (request.contentHash !== definitionContentHash(definition))
    throw new AppError(409, 'definition_import_changed');
  return publishStudyDefinition(db, actor, studyId, definition, { replacingDraft: true });
}
