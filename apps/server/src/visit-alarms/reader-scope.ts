import type { SiteSummary } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import { type SiteScope, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';

/** What a reader of subject data may see in a study: the sites, as a scope and as a list. */
export interface ReaderScope {
  studyId: number;
  scope: SiteScope;
  /** The sites in scope, by institution number (dropdown choices). */
  sites: SiteSummary[];
  /** The study's current definition; null for a study without one (it can have no subject data). */
  definition: StudyDefinition | null;
}

/** The refusals of `readerScope` and `narrowToSite`, as the read-outs' routes list them (`http/refusals.ts`). */
export const READER_REFUSALS = {
  403: 'The role may not read subjects (`forbidden`).',
  404: 'The site filtered on is not one the caller sees (`not_found`).',
} as const;

/**
 * The policy of the study-wide read-outs (dashboard, subject alarms, subject-info counts): members
 * only (a stranger gets 404, as for any study they are not in), and only with `subject.read`;
 * everything they count is limited to the sites `siteScope` gives.
 */
export async function readerScope(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<ReaderScope> {
  authorize(principal, 'subject.read', { studyId });
  const current = await currentStudyDefinition(db, studyId);
  const scope = siteScope(principal, 'subject.read', studyId);
  let sites: SiteSummary[] = [];
  if (scope === 'all' || scope.size > 0) {
    let query = db
      .selectFrom('sites')
      .select(['id', 'code', 'name', 'institution_number'])
      .where('study_id', '=', studyId)
      .orderBy('institution_number');
    if (scope !== 'all') query = query.where('id', 'in', [...scope]);
    sites = (await query.execute()).map((site) => ({
      id: site.id,
      code: site.code,
      name: site.name,
      institutionNumber: site.institution_number,
    }));
  }
  return { studyId, scope, sites, definition: current?.definition ?? null };
}

/**
 * The scope narrowed to one site the reader asked for. A site outside the scope (another study's,
 * one the reader does not cover, or none at all) is 404: the reader cannot tell which.
 */
export function narrowToSite(reader: ReaderScope, siteId: number | undefined): SiteScope {
  if (siteId === undefined) return reader.scope;
  if (!reader.sites.some((site) => site.id === siteId)) throw new AppError(404, 'not_found');
  return new Set([siteId]);
}
