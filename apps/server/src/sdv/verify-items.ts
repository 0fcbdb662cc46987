import type { FormSdv, VerifyItemsRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { verifyChosenItems } from './change-form-marks.ts';

/**
 * `POST /api/studies/:studyId/sdv/verify`: the monitor marks items of one form as verified against
 * the source. A key the form has no verifiable item for is 422 `unknown_item`; an item without a
 * saved value 409 `sdv_item_not_entered`; an item verified already 409 `sdv_already_verified` (an
 * item changed since verified may be verified again). All or nothing, each mark audited.
 */
export async function verifyItems(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: VerifyItemsRequest,
  options: { at?: Date } = {},
): Promise<FormSdv> {
  const itemKeys = [...new Set(request.itemKeys)];
  return verifyChosenItems(
    db,
    principal,
    actor,
    studyId,
    request,
    options.at,
    async (_trx, _subject, form) => {
      const unknown = itemKeys.filter((key) => !form.verifiable.has(key));
      if (unknown.length > 0) throw new AppError(422, 'unknown_item', {}, { itemKeys: unknown });
      const entered = new Map(form.entered.map((item) => [item.key, item]));
      const notEntered = itemKeys.filter((key) => !entered.has(key));
      if (notEntered.length > 0 || form.instanceId === null) {
        throw new AppError(409, 'sdv_item_not_entered', {}, { itemKeys: notEntered });
      }
      const already = itemKeys.filter((key) => entered.get(key)?.state === 'verified');
      if (already.length > 0) throw new AppError(409, 'sdv_already_verified', {}, { itemKeys: already });
      return itemKeys.map((key) => entered.get(key)).filter((item) => item !== undefined);
    },
  );
}
