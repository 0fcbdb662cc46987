import type { LabRangesResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import { can, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { presentLabRange, selectLabRanges } from './lab-range-view.ts';

/** The normal ranges of the reader's sites (every study member reads them), by site, test and date. */
export async function listLabRanges(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filters: { siteId?: number | undefined; retired: boolean },
): Promise<LabRangesResponse> {
  authorize(principal, 'member', { studyId });
  const sites = siteScope(principal, 'subject.read', studyId);
  let query = selectLabRanges(db).where('lab_ranges.study_id', '=', studyId);
  if (sites !== 'all') {
    if (sites.size === 0) return { ranges: [], canManage: false };
    query = query.where('lab_ranges.site_id', 'in', [...sites]);
  }
  if (filters.siteId !== undefined) query = query.where('lab_ranges.site_id', '=', filters.siteId);
  if (!filters.retired) query = query.where('lab_ranges.retired_at', 'is', null);
  const rows = await query
    .orderBy('sites.code')
    .orderBy('lab_ranges.test_key')
    .orderBy('lab_ranges.effective_from', 'desc')
    .orderBy('lab_ranges.id')
    .execute();
  return { ranges: rows.map(presentLabRange), canManage: can(principal, 'lab.manage', { studyId }) };
}
