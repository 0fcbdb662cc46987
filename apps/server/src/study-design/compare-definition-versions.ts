import type { DefinitionComparison } from '@cdms/contract';
import { describeDiff, diffDefinitions } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { studyDefinitionVersions } from '../studies/study-definitions.ts';
import { definitionVersionSummary } from './list-definition-versions.ts';

/** The study a comparison is printed for: its code and title in both languages. */
export interface ComparedStudy {
  code: string;
  title: string;
  titleEn: string;
}

/**
 * `GET …/definition-versions/compare`: what changed from one version of a study's definition to
 * another (issue 48 item 7) — the counts per kind and the lines of packages/study `describeDiff` in the
 * language asked for. Either order may be asked (from a newer to an older version reads as going back).
 * Nothing is audited: a study's design is readable by every member and holds no subject data.
 */
export async function compareDefinitionVersions(
  db: Kysely<Database>,
  studyId: number,
  query: { from: string; to: string; language: Language },
): Promise<{ study: ComparedStudy; comparison: DefinitionComparison }> {
  const study = await db
    .selectFrom('studies')
    .select(['code', 'title', 'title_en'])
    .where('id', '=', studyId)
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const versions = await studyDefinitionVersions(db, studyId);
  const versionNamed = (version: string) => {
    const found = versions.find((candidate) => candidate.version === version);
    if (!found) throw new AppError(404, 'definition_version_not_found', { version });
    return found;
  };
  const from = versionNamed(query.from);
  const to = versionNamed(query.to);
  const diff = diffDefinitions(from.definition, to.definition);
  return {
    study: { code: study.code, title: study.title, titleEn: study.title_en },
    comparison: {
      language: query.language,
      from: definitionVersionSummary(from),
      to: definitionVersionSummary(to),
      summary: diff.summary,
      lines: describeDiff(diff, query.language),
    },
  };
}
