import type { DefinitionImportProblem, DefinitionImportRequest } from '@cdms/contract';
import { type ImportProblem, readDefinitionFile, type StudyDefinition } from '@cdms/study';
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
  const studyKey = current?.definition.key ?? keyOfCode(study.code);
  const result = readDefinitionFile(request, {
    studyKey,
    studyLabel: current?.definition.label ?? { ko: study.title, en: study.title_en || study.title },
    language: request.language,
  });
  const problems: ImportProblem[] = [...result.problems];
  // A study keeps its key from one version to the next: a file that names another (a JSON, ODM or
  // workbook of another study, or of a copy) is read as this study's, and the preview says so.
  if (result.definition && result.definition.key !== studyKey)
    problems.push({
      severity: 'note',
      message: {
        ko: `파일의 임상시험 키 ${result.definition.key} 대신 이 임상시험의 키 ${studyKey}를 씁니다`,
        en: `the file's study key ${result.definition.key} becomes this study's key ${studyKey}`,
      },
    });
  const definition = result.definition && {
    ...result.definition,
    key: studyKey,
    version: current?.version ?? '1.0.0',
  };
  return {
    inDesign: study.status === 'design',
    current: current?.definition ?? null,
    definition,
    problems: problems.map((problem) => ({
      severity: problem.severity,
      line: problem.line ?? null,
      column: problem.column ?? null,
      field: problem.field ?? null,
      message: problem.message,
    })),
  };
}
