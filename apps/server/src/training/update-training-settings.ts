import type { TrainingSettings } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { changeStudySetting, STUDY_SETTINGS } from '../studies/change-study-setting.ts';

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
  await changeStudySetting(
    db,
    actor,
    studyId,
    STUDY_SETTINGS.trainingGatesDataEntry,
    settings.gatesDataEntry,
  );
  return settings;
}
