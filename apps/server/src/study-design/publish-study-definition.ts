import { type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

// Its own file, above the read model: studies/study-definitions.ts is read by nearly every module,
// the read model among them, so it cannot call the read model's rebuild itself.
/**
 * Stores a new version of a study's definition after validating it with the same schema the
 * browser uses. A version is written once; saved data keeps pointing at the version it used. While
 * the study is in design (`replacingDraft`) no data points at any version yet, and an upload of a
 * version already stored replaces that draft. Returns the stored copy's content hash.
 */
export async function publishStudyDefinition(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  definition: StudyDefinition,
  options: {
    replacingDraft?: boolean;
    /**
     * More of the publication in its transaction, before the version is written: a design draft's
     * closing (under the study's row lock), an amendment's (which takes the lock itself).
     */
    inTheSameTransaction?: (trx: Transaction<Database>) => Promise<void>;
  } = {},
): Promise<{ version: string; contentHash: string }> {
  const valid = studyDefinitionSchema.parse(definition);
  const contentHash = definitionContentHash(valid);
  await inTransaction(db, async (trx) => {
    // Checked again under the study's row lock: a go-live committed since the caller's check wins.
    if (options.replacingDraft) await requireStudyInDesign(trx, studyId, { forUpdate: true });
    await options.inTheSameTransaction?.(trx);
    if (options.replacingDraft) {
      await trx
        .deleteFrom('study_definitions')
        .where('study_id', '=', studyId)
        .where('version', '=', valid.version)
        .execute();
    }
    // What the memberships read of the design on every request: which features the study has.
    await trx
      .updateTable('studies')
      .set({ design_roles: Object.keys(valid.roles ?? {}).sort() })
      .where('id', '=', studyId)
      .execute();
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
      after: { key: valid.key, version: valid.version, contentHash },
    });
  });
  // A new version can move visit windows and code lists: the study's read model follows it.
  await rebuildReadModel(db, { studyId });
  return { version: valid.version, contentHash };
}
