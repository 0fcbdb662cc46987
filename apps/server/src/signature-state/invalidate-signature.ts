import { isSigningForm, type StudyDefinition } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { AfterChange } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Database } from '../db/schema.ts';
import { notifyResignRequired } from '../notifications/notify-signature.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';

/**
 * Called by `writeForm` inside its transaction after it stored changed items: a change to any
 * signed data (every form but the signing form) marks the signature in force as invalidated —
 * "re-sign required" — naming what changed, audited. The row stays: the signing history is kept.
 * `writeForm` calls it only when it read a signature in force under the subject's lock (signing
 * takes that lock too): an unsigned subject's save sends no statement here. Returns whether it
 * invalidated a signature.
 */
export async function invalidateSignatureOnChange(
  trx: Transaction<Database>,
  subject: SubjectWithSite,
  actor: AuditActor,
  definition: StudyDefinition,
  change: { visitKey: string; formKey: string; itemKeys: readonly string[] },
): Promise<boolean> {
  if (change.itemKeys.length === 0 || isSigningForm(definition, change.visitKey, change.formKey))
    return false;
  const changedPaths = change.itemKeys.map((itemKey) => `${change.visitKey}.${change.formKey}.${itemKey}`);
  // The reason names the changed items (visit.form.item, comma-separated); screens label them.
  const invalidated = await trx
    .updateTable('signatures')
    .set({ invalidated_at: new Date(), invalidated_reason: changedPaths.join(', ') })
    .where('subject_id', '=', subject.id)
    .where('invalidated_at', 'is', null)
    .returning(['id', 'data_hash'])
    .executeTakeFirst();
  if (!invalidated) return false;
  await recordAudit(trx, actor, {
    type: 'signature.invalidated',
    entityType: 'signature',
    entityId: invalidated.id,
    ...subjectAuditScope(subject),
    before: { state: 'signed', dataHash: invalidated.data_hash },
    after: { state: 'invalidated', changedItems: changedPaths },
    reason: `Data changed after signing: ${changedPaths.join(', ')}`,
  });
  await notifyResignRequired(trx, subject, actor.userId);
  return true;
}

/** After a save: changed data no longer match what the investigator signed. */
export const invalidateSignatureAfterChange: AfterChange = async (change) => {
  change.effects.signatureInvalidated =
    change.signed &&
    (await invalidateSignatureOnChange(change.trx, change.subject, change.actor, change.definition, {
      visitKey: change.visitKey,
      formKey: change.formKey,
      itemKeys: change.changedKeys,
    }));
};
