import type { DefinitionVersionSummary } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { studyDefinitionVersions } from '../studies/study-definitions.ts';

/**
 * `GET …/definition-versions`: every version of a study's definition, oldest first, each with the time
 * its text in force was written, its content hash (as the audit trail records it) and its size — the
 * choices of the version comparison (issue 48 item 7). A study without a definition has none (an empty
 * list); an unknown study is a 404.
 */
export async function listDefinitionVersions(
  db: Kysely<Database>,
  studyId: number,
): Promise<{ versions: DefinitionVersionSummary[] }> {
  const study = await db.selectFrom('studies').select('id').where('id', '=', studyId).executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const versions = await studyDefinitionVersions(db, studyId);
  return { versions: versions.map(definitionVersionSummary) };
}

export function definitionVersionSummary(version: {
  version: string;
  definition: StudyDefinition;
  createdAt: Date;
}): DefinitionVersionSummary {
  const { definition } = version;
  return {
    version: version.version,
    createdAt: version.createdAt.toISOString(),
    contentHash: definitionContentHash(definition),
    counts: {
      visits: definition.visits.length,
      forms: definition.forms.length,
      items: definition.forms.reduce(
        (sum, form) => sum + form.sections.reduce((items, section) => items + section.items.length, 0),
        0,
      ),
    },
  };
}
