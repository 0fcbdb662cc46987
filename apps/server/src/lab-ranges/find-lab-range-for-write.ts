import type { Transaction } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * The study's range, locked for a change in this transaction: 404 when absent, 409
 * `lab_range_retired` once retired (a retired range is kept as it was).
 */
export async function findLabRangeForWrite(
  trx: Transaction<Database>,
  principal: Principal,
  studyId: number,
  rangeId: number,
) {
  const range = await trx
    .selectFrom('lab_ranges')
    .selectAll()
    .where('id', '=', rangeId)
    .where('study_id', '=', studyId)
    .forUpdate()
    .executeTakeFirst();
  // A range of a site the user does not keep is as unknown as one that does not exist.
  if (!range || !can(principal, 'lab.manage', { studyId, siteId: range.site_id }))
    throw new AppError(404, 'not_found');
  if (range.retired_at !== null) throw new AppError(409, 'lab_range_retired');
  return range;
}
