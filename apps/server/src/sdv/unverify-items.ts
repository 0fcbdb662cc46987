import type { FormSdv, UnverifyItemsRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { changeFormMarks } from './change-form-marks.ts';

/**
 * `POST /api/studies/:studyId/sdv/unverify`: the monitor withdraws marks, with a reason (a mark made in
 * error). Only verified items can be un-verified (409 `sdv_not_verified` names the others); each
 * withdrawal is audited with the reason, and the item is unverified again.
 */
export async function unverifyItems(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: UnverifyItemsRequest,
): Promise<FormSdv> {
  const { visitKey, formKey } = request;
  const itemKeys = [...new Set(request.itemKeys)];
  const reason = request.reason.trim();
  return changeFormMarks(db, principal, studyId, request, async (trx, { subject }, form) => {
    const unknown = itemKeys.filter((key) => !form.verifiable.has(key));
    if (unknown.length > 0) throw new AppError(422, 'unknown_item', {}, { itemKeys: unknown });
    const verified = new Set(
      form.entered.filter((item) => item.state === 'verified').map((item) => item.key),
    );
    const notVerified = itemKeys.filter((key) => !verified.has(key));
    if (notVerified.length > 0 || form.instanceId === null) {
      throw new AppError(409, 'sdv_not_verified', {}, { itemKeys: notVerified });
    }
    for (const key of itemKeys) {
      await trx
        .deleteFrom('sdv_marks')
        .where('form_instance_id', '=', form.instanceId)
        .where('item_key', '=', key)
        .execute();
      await recordAudit(trx, actor, {
        type: 'sdv.unverified',
        entityType: 'item',
        entityId: `${visitKey}.${formKey}.${key}`,
        ...subjectAuditScope(subject),
        before: { state: 'verified' },
        after: { state: 'unverified' },
        reason,
      });
    }
  });
}
