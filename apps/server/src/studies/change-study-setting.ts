import type { Kysely } from 'kysely';
import type { AuditActor, AuditEventType } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, StudyRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * The yes/no settings of a study: the column each is stored in, the key its audit record names it
 * by, and the event of its change.
 */
export const STUDY_SETTINGS = {
  trainingGatesDataEntry: {
    column: 'training_gates_data_entry',
    auditKey: 'gatesDataEntry',
    event: 'training.settings_changed',
  },
  designApprovalRequired: {
    column: 'design_approval_required',
    auditKey: 'approvalRequired',
    event: 'study.design_settings_changed',
  },
} as const satisfies Record<string, { column: keyof StudyRow; auditKey: string; event: AuditEventType }>;

export type StudySetting = (typeof STUDY_SETTINGS)[keyof typeof STUDY_SETTINGS];

/**
 * Changes one yes/no setting of a study under the study's row lock, audited as a setting change with
 * before and after; an unchanged value writes nothing. A study that does not exist is a 404.
 */
export async function changeStudySetting(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  setting: StudySetting,
  value: boolean,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const study = await trx
      .selectFrom('studies')
      .select(setting.column)
      .where('id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    if (!study) throw new AppError(404, 'not_found');
    const before = study[setting.column];
    if (before === value) return;
    await updateRowAudited(
      trx,
      actor,
      { table: 'studies', id: studyId, set: { [setting.column]: value } },
      {
        type: setting.event,
        studyId,
        before: { [setting.auditKey]: before },
        after: { [setting.auditKey]: value },
      },
    );
  });
}
