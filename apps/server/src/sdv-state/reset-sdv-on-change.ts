import type { Transaction } from 'kysely';
import type { AfterChange } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Database } from '../db/schema.ts';

/**
 * Called by `writeForm` in its transaction: changed items that were verified lose their verification
 * ("changed since verified", state 'changed'), each reset audited. The mark keeps who verified and
 * when, so the form screen can say what the change undid. Returns how many it reset. The caller
 * passes only the changed items it read as verified under the subject's lock (SDV marking takes
 * that lock too), so a save that touches no verified item sends no statement here.
 */
export async function resetSdvOfChangedItems(
  trx: Transaction<Database>,
  actor: AuditActor,
  subject: { id: number; study_id: number; site_id: number },
  form: { instanceId: number; visitKey: string; formKey: string },
  changedKeys: readonly string[],
  at: Date,
): Promise<number> {
  if (changedKeys.length === 0) return 0;
  const reset = await trx
    .updateTable('sdv_marks')
    .set({ state: 'changed', changed_at: at })
    .where('form_instance_id', '=', form.instanceId)
    .where('item_key', 'in', [...changedKeys])
    .where('state', '=', 'verified')
    .returning(['item_key', 'verified_by', 'verified_at'])
    .execute();
  for (const mark of reset) {
    await recordAudit(trx, actor, {
      type: 'sdv.reset',
      entityType: 'item',
      entityId: `${form.visitKey}.${form.formKey}.${mark.item_key}`,
      ...subjectAuditScope(subject),
      before: { state: 'verified', verifiedBy: mark.verified_by, verifiedAt: mark.verified_at.toISOString() },
      after: { state: 'changed' },
    });
  }
  return reset.length;
}

/** After a save: changed values lose their source verification, audited ("changed since verified"). */
export const resetSdvAfterChange: AfterChange = async (change) => {
  change.effects.verificationsReset = await resetSdvOfChangedItems(
    change.trx,
    change.actor,
    change.subject,
    { instanceId: change.instance.id, visitKey: change.visitKey, formKey: change.formKey },
    change.changedKeys.filter((itemKey) => change.verifiedItemKeys.has(itemKey)),
    change.at,
  );
};
