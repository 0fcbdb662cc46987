import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';

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
  await db.transaction().execute(async (trx) => {
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
}

/** The newest version of the study's definition, or undefined when it has none. */
export async function currentStudyDefinition(
  db: Kysely<Database>,
  studyId: number,
): Promise<{ version: string; definition: StudyDefinition } | undefined> {
  const row = await db
    .selectFrom('study_definitions')
    .select(['version', 'definition'])
    .where('study_id', '=', studyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return { version: row.version, definition: row.definition as StudyDefinition };
}
