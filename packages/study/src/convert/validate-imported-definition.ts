import {
  findDefinitionProblemTexts,
  type StudyDefinition,
  studyDefinitionSchema,
} from '../model/study-definition.ts';
import type { ImportProblem } from './redcap/redcap-dictionary.ts';

/**
 * The last step of every importer: the definition an import built, checked as an uploaded
 * document is — the schema, then the cross-references — with each failure added to the import's
 * problems. Returns the parsed definition, or null when it is not sound.
 */
export function validateImportedDefinition(
  definition: unknown,
  problems: ImportProblem[],
): StudyDefinition | null {
  const parsed = studyDefinitionSchema.safeParse(definition);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const place = issue.path.join('.');
    problems.push({
      severity: 'error',
      message: { en: `${place}: ${issue.message}`, ko: `${place}: ${issue.message}` },
    });
  }
  // The cross-references read a definition the schema refused: only when its shape holds up.
  try {
    for (const problem of findDefinitionProblemTexts(definition as StudyDefinition))
      problems.push({ severity: 'error', message: problem });
  } catch {
    // A shape too broken to walk: the schema's problems above say why.
  }
  return null;
}
