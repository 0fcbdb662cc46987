import type { SiteSummary } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { type SiteScope, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';

/**
 * Who sees what of central monitoring: indicators over the sites whose subjects the reader reads
 * (site staff their own sites, monitors theirs, DM and ADMIN all); signals over the sites where the
 * reader holds `monitoring.review` (none for site staff).
 */
export function monitoringScopes(
  principal: Principal,
  studyId: number,
): { indicators: SiteScope; signals: SiteScope } {
  return {
    indicators: siteScope(principal, 'subject.read', studyId),
    signals: siteScope(principal, 'monitoring.review', studyId),
  };
}

export function inScope(scope: SiteScope, siteId: number): boolean {
  return scope === 'all' || scope.has(siteId);
}

/** The study's sites in a scope, by code. */
export async function sitesInScope(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  scope: SiteScope,
): Promise<SiteSummary[]> {
  if (scope !== 'all' && scope.size === 0) return [];
  let query = db
    .selectFrom('sites')
    .select(['id', 'code', 'name', 'institution_number'])
    .where('study_id', '=', studyId)
    .orderBy('code');
  if (scope !== 'all') query = query.where('id', 'in', [...scope]);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    institutionNumber: row.institution_number,
  }));
}
