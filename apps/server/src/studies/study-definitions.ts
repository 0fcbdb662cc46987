import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';

/**
 * Stores a new version of a study's definition after validating it with the same schema the
 * browser uses. A version is written once; saved data keeps pointing at the version it used.
 */
export async function publishStudyDefinition(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  definition: StudyDefinition,
): Promise<void> {
  const valid = studyDefinitionSchema.parse(definition);
  await inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('study_definitions')
      .values({ study_id: studyId, version: valid.version, definition: JSON.stringify(valid) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'study.definition_published',
      entityType: 'study_definition',
      entityId: row.id,
      studyId,
      after: { key: valid.key, version: valid.version },
    });
  });
  // A new version can move visit windows and code lists: the study's read model follows it.
  await rebuildReadModel(db, { studyId });
}

// Definition rows never change once written, so a parsed copy per row id can be kept: it is a
// cache of immutable data, not state (every server process builds its own).
const parsedDefinitions = new Map<number, StudyDefinition>();

/** The row id and version of the study's newest definition, as a subquery: a column of the caller's statement. */
export function latestDefinitionOf(db: Kysely<Database> | Transaction<Database>, studyId: number) {
  return jsonObjectFrom(
    db
      .selectFrom('study_definitions')
      .select(['study_definitions.id', 'study_definitions.version'])
      .where('study_definitions.study_id', '=', studyId)
      .orderBy('study_definitions.id', 'desc')
      .limit(1),
  );
}

/** The newest version of the study's definition, or undefined when it has none. */
export async function currentStudyDefinition(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<{ version: string; definition: StudyDefinition } | undefined> {
  const latest = await db
    .selectFrom('study_definitions')
    .select(['id', 'version'])
    .where('study_id', '=', studyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest ? studyDefinitionOfRow(db, latest) : undefined;
}

/** The definition of a row found by `latestDefinitionOf` (parsed once per process: rows never change). */
export async function studyDefinitionOfRow(
  db: Kysely<Database> | Transaction<Database>,
  latest: { id: number; version: string },
): Promise<{ version: string; definition: StudyDefinition }> {
  let definition = parsedDefinitions.get(latest.id);
  if (!definition) {
    const row = await db
      .selectFrom('study_definitions')
      .select('definition')
      .where('id', '=', latest.id)
      .executeTakeFirstOrThrow();
    definition = row.definition as StudyDefinition;
    parsedDefinitions.set(latest.id, definition);
  }
  return { version: latest.version, definition };
}
