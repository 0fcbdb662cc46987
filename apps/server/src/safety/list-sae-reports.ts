import type { SaeListResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { saeReportQuery } from './sae-access.ts';
import { presentSaeSummary } from './sae-presenter.ts';

export interface SaeListFilter {
  status?: 'draft' | 'submitted' | 'acknowledged' | undefined;
  siteId?: number | undefined;
  overdue?: 'true' | 'false' | undefined;
  page: number;
  size: number;
}

/**
 * A page of the study's SAE reports the caller may read (`sae.read`'s sites), filtered by status, site
 * and the clock (`overdue`: not submitted and past due), counted and paged in SQL; the reports on the
 * clock (not yet submitted) first, each group by its due time.
 */
export async function listSaeReports(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: SaeListFilter,
  now: Date = new Date(),
): Promise<SaeListResponse> {
  const sites = siteScope(principal, 'sae.read', studyId);
  let query = saeReportQuery(db, studyId);
  if (sites !== 'all') {
    if (sites.size === 0) return { reports: [], total: 0, page: filter.page, size: filter.size };
    query = query.where('r.site_id', 'in', [...sites]);
  }
  if (filter.status) query = query.where('r.status', '=', filter.status);
  if (filter.siteId !== undefined) query = query.where('r.site_id', '=', filter.siteId);
  if (filter.overdue === 'true')
    query = query.where('r.first_submitted_at', 'is', null).where('r.due_at', '<', now);
  if (filter.overdue === 'false')
    query = query.where((eb) =>
      eb.or([eb('r.first_submitted_at', 'is not', null), eb('r.due_at', '>=', now)]),
    );
  const counted = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy((eb) => eb.case().when('r.first_submitted_at', 'is', null).then(0).else(1).end())
    .orderBy('r.due_at')
    .orderBy('r.id', 'desc')
    .limit(filter.size)
    .offset((filter.page - 1) * filter.size)
    .execute();
  return {
    reports: rows.map((row) => presentSaeSummary(row, now)),
    total: Number(counted.total),
    page: filter.page,
    size: filter.size,
  };
}
