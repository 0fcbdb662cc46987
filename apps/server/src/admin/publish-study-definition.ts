import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';

// Its own file, above the read model: studies/study-definitions.ts is read by nearly every module,
// the read model among them, so it cannot call the read model's rebuild itself.
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
