import type { LabRange } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { findLabRangeForWrite } from './find-lab-range-for-write.ts';
import { auditedLabRange, presentLabRange, selectLabRanges } from './lab-range-view.ts';
import { reflagLabResults } from './reflag-lab-results.ts';

/**
 * Retires a normal range (DM, ADMIN, audited): it is no longer applied to results, but stays listed,
 * so that a flag shown while it was in force can still be explained. Retiring twice is a 409.
 */
export async function retireLabRange(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  rangeId: number,
): Promise<LabRange> {
  authorize(principal, 'lab.manage', { studyId });
  await inTransaction(db, async (trx) => {
    const before = await findLabRangeForWrite(trx, principal, studyId, rangeId);
    const now = new Date();
    await updateRowAudited(
      trx,
      actor,
      {
        table: 'lab_ranges',
        id: rangeId,
        set: { retired_at: now, updated_by: principal.user.id, updated_at: now },
      },
      {
        type: 'lab_range.retired',
        studyId,
        siteId: before.site_id,
        before: auditedLabRange(before),
        after: auditedLabRange({ ...before, retired_at: now }),
      },
    );
    // The results it applied to fall back on the range in force without it, or none.
    await reflagLabResults(trx, [{ siteId: before.site_id, testKey: before.test_key }]);
  });
  return presentLabRange(
    await selectLabRanges(db).where('lab_ranges.id', '=', rangeId).executeTakeFirstOrThrow(),
  );
}
