import type { GuidelineDetail } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, GuidelineRow } from '../db/schema.ts';
import { findGuidelineForWrite } from './find-guideline-for-write.ts';
import { getGuideline } from './get-guideline.ts';
import { requireGuidelineWriter } from './guideline-access.ts';

/**
 * A writer's change of one guideline's state: the writer check, the guideline locked (404 when
 * absent) and changed in one transaction, then the guideline as the writer now reads it.
 */
export async function changeGuideline(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  guidelineId: number,
  change: (trx: Transaction<Database>, before: GuidelineRow) => Promise<void>,
): Promise<GuidelineDetail> {
  requireGuidelineWriter(principal, studyId);
  await inTransaction(db, async (trx) => change(trx, await findGuidelineForWrite(trx, studyId, guidelineId)));
  return getGuideline(db, principal, studyId, guidelineId);
}
