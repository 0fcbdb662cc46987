import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database } from '../db/schema.ts';
import { changeStudySetting, STUDY_SETTINGS } from '../studies/change-study-setting.ts';

/**
 * `PUT …/design-settings` (issue 48 item 7): an administrator of the study decides whether a design
 * draft is published only with an approved review. Audited as a setting change with before and after.
 */
export async function changeDesignApprovalSetting(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  approvalRequired: boolean,
): Promise<{ approvalRequired: boolean }> {
  await changeStudySetting(db, actor, studyId, STUDY_SETTINGS.designApprovalRequired, approvalRequired);
  return { approvalRequired };
}
