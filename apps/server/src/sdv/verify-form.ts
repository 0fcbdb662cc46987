import type { FormSdv, VerifyFormRequest } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { verifyChosenItems } from './change-form-marks.ts';
import { unverifiedPlannedItems } from './sdv-marking.ts';

/**
 * `POST /api/studies/:studyId/sdv/verify-form`: "verify form" marks every entered item of the form
 * that the plan counts for this subject and that is not verified (never, or changed since). Nothing
 * left is a 409 `sdv_nothing_to_verify`. Items outside the plan are verified one by one (verify-items).
 */
export async function verifyForm(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: VerifyFormRequest,
  options: { at?: Date } = {},
): Promise<FormSdv> {
  return verifyChosenItems(db, principal, actor, studyId, request, options.at, unverifiedPlannedItems);
}
