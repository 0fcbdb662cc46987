import type { DefinitionImportProblem, DefinitionImportRequest } from '@cdms/contract';
import { readRedcapDictionary, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';

/**
 * A design file read into a definition of this study (issue 47), with every problem by line and
 * column. The definition keeps the study's key, label and version (in design, the draft's version is
 * replaced, as an uploaded document does); a study without one gets its code as the key and 1.0.0.
 * The same pure converter (packages/study) runs in the browser; the server's reading is the one
 * that counts.
 */
export interface DefinitionImport {
  /** Whether the study is in design, the only state in which an import is confirmed. */
  inDesign: boolean;
  current: StudyDefinition | null;
  definition: StudyDefinition | null;
  problems: DefinitionImportProblem[];
}

/** A study code as a definition key: its letters and digits (`TMP-2026` → `TMP2026`). */
function keyOfCode(code: string): string {
  const key = code.replace(/[^A-Za-z0-9]/g, '');
  return /^[A-Za-z]/.test(key) ? key : `S${key}`;
}

export async function readDefinitionImport(
  db: Kysely<Database>,
  studyId: number,
  request: DefinitionImportRequest,
): Promise<DefinitionImport> {
  const study = await db
    .selectFrom('studies')
    .select(['code', 'title', 'title_en', 'status'])
    .where('id', '=', studyId)
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const current = (await currentStudyDefinition(db, studyId)) ?? null;
  const result = readRedcapDictionary(request.file, {
    studyKey: current?.definition.key ?? keyOfCode(study.code),
    studyLabel: current?.definition.label ?? { ko: study.title, en: study.title_en || study.title },
    language: request.language,
    eventMapping: request.eventMapping,
  });
  const definition = result.definition && { ...result.definition, version: current?.version ?? '1.0.0' };
  return {
    inDesign: study.status === 'design',
    current: current?.definition ?? null,
    definition,
    problems: result.problems.map((problem) => ({
      severity: problem.severity,
      line: problem.line ?? null,
      column: problem.column ?? null,
      field: problem.field ?? null,
      message: problem.message,
    })),
  };
}
