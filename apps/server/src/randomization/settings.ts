import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

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
  await inTransaction(db, async (trx) => {
    const study = await trx
      .selectFrom('studies')
      .select('show_randomization_group')
      .where('id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    if (!study) throw new AppError(404, 'not_found');
    if (study.show_randomization_group === settings.showGroup) return;
    await trx
      .updateTable('studies')
      .set({ show_randomization_group: settings.showGroup })
      .where('id', '=', studyId)
      .execute();
    await recordAudit(trx, actor, {
      type: 'randomization.settings_changed',
      entityType: 'study',
      entityId: studyId,
      studyId,
      before: { showGroup: study.show_randomization_group },
      after: { showGroup: settings.showGroup },
    });
  });
}
