import type { DefinitionImportPreview, DefinitionImportRequest } from '@cdms/contract';
import { compareDefinitions, describeDiff, diffDefinitions, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { readDefinitionImport } from './read-definition-import.ts';

/** How many items carry logic (a show-when, a derivation or a conditional requirement). */
function logicCount(definition: StudyDefinition): number {
  let count = 0;
  for (const form of definition.forms)
    for (const section of form.sections)
      for (const item of section.items)
        if (item.showWhen !== undefined || item.derive !== undefined || item.requiredWhen !== undefined)
          count += 1;
  return count + definition.forms.reduce((sum, form) => sum + (form.checks?.length ?? 0), 0);
}

/**
 * `POST …/definition-imports/preview`: what an import would create and change — the keys added and
 * removed, and every difference from the current version as lines in the user's language, so nothing
 * (a window, a check) is dropped without being shown —, and its problems, with nothing written (issue 47
 * item 5). A file that cannot be read into a definition at all is a
 * 422 `unreadable_definition_file` with its problems. The designer confirms with the same file and the
 * preview's content hash.
 */
export async function previewDefinitionImport(
  db: Kysely<Database>,
  studyId: number,
  request: DefinitionImportRequest,
  /** The language of the differences' lines: the user's. */
  language: Language,
): Promise<DefinitionImportPreview> {
  const { inDesign, current, definition, problems } = await readDefinitionImport(db, studyId, request);
  // A file that gives no definition at all (not XML, not a workbook, a zip bomb, entities, broken
  // quoting…) is refused, its problems listed; one that gives a definition with errors is shown.
  if (!definition) {
    const errors = problems.filter((problem) => problem.severity === 'error');
    throw new AppError(422, 'unreadable_definition_file', { count: errors.length }, { problems });
  }
  const importable = !problems.some((problem) => problem.severity === 'error');
  return {
    importable,
    canConfirm: importable && inDesign,
    contentHash: definitionContentHash(definition),
    version: definition.version,
    counts: {
      visits: definition.visits.length,
      forms: definition.forms.length,
      items: definition.forms.reduce(
        (sum, form) => sum + form.sections.reduce((items, section) => items + section.items.length, 0),
        0,
      ),
      codeLists: definition.codeLists.length,
      logic: logicCount(definition),
    },
    differences: current ? describeDiff(diffDefinitions(current, definition), language) : [],
    changes: compareDefinitions(current, definition),
    problems,
  };
}
