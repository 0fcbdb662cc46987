import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database } from '../db/schema.ts';
import { changeStudySetting, STUDY_SETTINGS } from '../studies/change-study-setting.ts';

/**
 * The study's randomization setting (product.md: "who may see the group is a study setting"):
 * whether site staff see the assigned group. Audited as a setting change; an unchanged value
 * writes nothing.
 */
export async function updateRandomizationSettings(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  settings: { showGroup: boolean },
): Promise<void> {
  await changeStudySetting(db, actor, studyId, STUDY_SETTINGS.randomizationGroupShown, settings.showGroup);
}
