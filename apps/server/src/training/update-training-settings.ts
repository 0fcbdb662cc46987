import type { TrainingSettings } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';

/**
 * The study setting `training_gates_data_entry` (DM, ADMIN), changed like the randomization setting:
 * audited with before and after; an unchanged value writes nothing.
 */
export async function updateTrainingSettings(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  settings: TrainingSettings,
): Promise<TrainingSettings> {
  authorize(principal, 'training.manage', { studyId });
  await inTransaction(db, async (trx) => {
    const study = await trx
      .selectFrom('studies')
      .select('training_gates_data_entry')
      .where('id', '=', studyId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (study.training_gates_data_entry === settings.gatesDataEntry) return;
    await trx
      .updateTable('studies')
      .set({ training_gates_data_entry: settings.gatesDataEntry })
      .where('id', '=', studyId)
      .execute();
    await recordAudit(trx, actor, {
      type: 'training.settings_changed',
      entityType: 'study',
      entityId: studyId,
      studyId,
      before: { gatesDataEntry: study.training_gates_data_entry },
      after: { gatesDataEntry: settings.gatesDataEntry },
    });
  });
  return settings;
}
