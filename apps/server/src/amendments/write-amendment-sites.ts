import type { AmendmentFields } from '@cdms/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { areSitesOfStudy } from '../studies/site-of-study.ts';

/**
 * The sites' approval dates of an amendment as sent: every site named must be the study's (else 422
 * `unknown_site`) and named once (`duplicate_site`); sites left out have no date. Replaces what was
 * there. Returns them as the audit records them (site id → date).
 */
export async function writeAmendmentSites(
  trx: Transaction<Database>,
  studyId: number,
  amendmentId: number,
  sites: AmendmentFields['sites'],
): Promise<Record<string, string | null>> {
  const ids = sites.map((site) => site.siteId);
  if (new Set(ids).size !== ids.length) throw new AppError(422, 'duplicate_site');
  if (!(await areSitesOfStudy(trx, studyId, ids))) throw new AppError(422, 'unknown_site');
  await trx.deleteFrom('study_amendment_sites').where('amendment_id', '=', amendmentId).execute();
  if (sites.length > 0)
    await trx
      .insertInto('study_amendment_sites')
      .values(
        sites.map((site) => ({
          amendment_id: amendmentId,
          site_id: site.siteId,
          effective_on: site.effectiveOn,
        })),
      )
      .execute();
  return Object.fromEntries(
    [...sites].sort((a, b) => a.siteId - b.siteId).map((site) => [String(site.siteId), site.effectiveOn]),
  );
}
