import type { DefinitionImportPreview, DefinitionImportRequest } from '@cdms/contract';
import { compareDefinitions, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
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
 * `POST …/definition-imports/preview`: what an import would create and change, and its problems,
 * with nothing written (issue 47 item 5). The designer confirms with the same file and the
 * preview's content hash.
 */
export async function previewDefinitionImport(
  db: Kysely<Database>,
  studyId: number,
  request: DefinitionImportRequest,
): Promise<DefinitionImportPreview> {
  const { inDesign, current, definition, problems } = await readDefinitionImport(db, studyId, request);
  const empty = { added: [], removed: [] };
  const importable = definition !== null && !problems.some((problem) => problem.severity === 'error');
  return {
    importable,
    canConfirm: importable && inDesign,
    contentHash: definition ? definitionContentHash(definition) : null,
    version: definition?.version ?? null,
    counts: {
      visits: definition?.visits.length ?? 0,
      forms: definition?.forms.length ?? 0,
      items: definition
        ? definition.forms.reduce(
            (sum, form) => sum + form.sections.reduce((items, section) => items + section.items.length, 0),
            0,
          )
        : 0,
      codeLists: definition?.codeLists.length ?? 0,
      logic: definition ? logicCount(definition) : 0,
    },
    changes: definition
      ? compareDefinitions(current, definition)
      : {
          visits: empty,
          forms: empty,
          codeLists: { ...empty, changed: [] },
          items: { ...empty, changed: [] },
        },
    problems,
  };
}
