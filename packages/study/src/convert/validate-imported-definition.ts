import { type StudyDefinition, studyDefinitionSchema } from '../model/study-definition.ts';
import type { ImportProblem } from './redcap/redcap-dictionary.ts';

/**
 * The last step of an importer: the definition it built, checked as an uploaded document is — the
 * schema with its cross-reference checks (which carry their Korean in the issue's `params.ko`) — with
 * each failure added to the import's problems. Returns the parsed definition, or null when it is not
 * sound. The workbook reader places the same issues at their cells itself.
 */
export function validateImportedDefinition(
  definition: unknown,
  problems: ImportProblem[],
): StudyDefinition | null {
  const parsed = studyDefinitionSchema.safeParse(definition);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const where = issue.path.join('.');
    const ko = (issue as { params?: { ko?: unknown } }).params?.ko;
    const korean = typeof ko === 'string' ? ko : issue.message;
    problems.push({
      severity: 'error',
      message: {
        en: where ? `${where}: ${issue.message}` : issue.message,
        ko: where ? `${where}: ${korean}` : korean,
      },
    });
  }
  return null;
}
