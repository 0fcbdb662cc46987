import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Database } from '../db/schema.ts';

// Definition rows never change once written, so a parsed copy per row can be kept: it is a cache of
// immutable data, not state (every server process builds its own). Keyed by the row's uid, not its id:
// a process that opens several databases (the test suite's workers) meets the same id for different
// documents.
const parsedDefinitions = new Map<string, StudyDefinition>();

/** The row id and version of the study's newest definition, as a subquery: a column of the caller's statement. */
export function latestDefinitionOf(db: Kysely<Database> | Transaction<Database>, studyId: number) {
  return jsonObjectFrom(
    db
      .selectFrom('study_definitions')
      .select(['study_definitions.id', 'study_definitions.version', 'study_definitions.uid'])
      .where('study_definitions.study_id', '=', studyId)
      .orderBy('study_definitions.id', 'desc')
      .limit(1),
  );
}

/**
 * The row id and version of the definition a subject's data entry uses, as a subquery of a statement
 * that reads `subjects`: the subject's own version (amendment-migration/), else the study's newest.
 */
export function subjectDefinitionOf(db: Kysely<Database> | Transaction<Database>, studyId: number) {
  return jsonObjectFrom(
    db
      .selectFrom('study_definitions')
      .select(['study_definitions.id', 'study_definitions.version', 'study_definitions.uid'])
      .where('study_definitions.study_id', '=', studyId)
      .where(
        sql<boolean>`(subjects.definition_version is null or study_definitions.version = subjects.definition_version)`,
      )
      .orderBy('study_definitions.id', 'desc')
      .limit(1),
  );
}

/** The row of the newest version of the study's definition (without the document), or undefined. */
export function latestDefinitionRow(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<{ id: number; version: string; uid: string } | undefined> {
  return db
    .selectFrom('study_definitions')
    .select(['id', 'version', 'uid'])
    .where('study_id', '=', studyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The newest version of the study's definition, or undefined when it has none. */
export async function currentStudyDefinition(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<{ version: string; definition: StudyDefinition } | undefined> {
  const latest = await latestDefinitionRow(db, studyId);
  return latest ? studyDefinitionOfRow(db, latest) : undefined;
}

/** The definition of a row found by `latestDefinitionRow` (parsed once per process: rows never change). */
export async function studyDefinitionOfRow(
  db: Kysely<Database> | Transaction<Database>,
  latest: { id: number; version: string; uid: string },
): Promise<{ version: string; definition: StudyDefinition }> {
  let definition = parsedDefinitions.get(latest.uid);
  if (!definition) {
    const row = await db
      .selectFrom('study_definitions')
      .select('definition')
      .where('id', '=', latest.id)
      .executeTakeFirstOrThrow();
    definition = row.definition as StudyDefinition;
    parsedDefinitions.set(latest.uid, definition);
  }
  return { version: latest.version, definition };
}

/** One version of the study's definition by its number (the subject's own, after an amendment). */
export async function studyDefinitionOfVersion(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  version: string,
): Promise<{ version: string; definition: StudyDefinition }> {
  const row = await db
    .selectFrom('study_definitions')
    .select(['id', 'version', 'uid'])
    .where('study_id', '=', studyId)
    .where('version', '=', version)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return studyDefinitionOfRow(db, row);
}

/**
 * The definition a subject on `version` is entered and read by: that version's, or the study's newest
 * for a subject no amendment has pinned (null). Undefined only for a study without a definition.
 */
export async function definitionOfSubjectVersion(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  version: string | null,
): Promise<StudyDefinition | undefined> {
  if (version === null) return (await currentStudyDefinition(db, studyId))?.definition;
  return (await studyDefinitionOfVersion(db, studyId, version)).definition;
}

/**
 * Every version of the study's definition, oldest first, each with the time it was written; empty when
 * it has none. A version written again while the study was in design is one version: its last text is
 * the one in force, in the place of that last writing. The design's history as the ODM metadata exports
 * write it (one MetaDataVersion each).
 */
export async function studyDefinitionVersions(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<{ version: string; definition: StudyDefinition; createdAt: Date }[]> {
  const rows = await db
    .selectFrom('study_definitions')
    .select(['version', 'definition', 'created_at'])
    .where('study_id', '=', studyId)
    .orderBy('id', 'asc')
    .execute();
  const versions = new Map<string, { version: string; definition: StudyDefinition; createdAt: Date }>();
  for (const row of rows) {
    versions.delete(row.version);
    versions.set(row.version, {
      version: row.version,
      definition: row.definition as StudyDefinition,
      createdAt: row.created_at,
    });
  }
  return [...versions.values()];
}
