import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { jsonContentHash } from '../studies/definition-content-hash.ts';
import type { AmendmentRow } from './amendment-rows.ts';

/**
 * What an impact analysis reads beside the draft, as one hash: the declarations and the sites'
 * approval dates (a date moves subjects in or out of `siteNotInEffect`). An analysis is current while
 * the draft's revision and this hash are those it read.
 */
export async function impactInputsHash(
  executor: Kysely<Database> | Transaction<Database>,
  amendment: AmendmentRow,
): Promise<string> {
  const sites = await executor
    .selectFrom('study_amendment_sites')
    .select(['site_id', 'effective_on'])
    .where('amendment_id', '=', amendment.id)
    .orderBy('site_id')
    .execute();
  return jsonContentHash({
    declarations: amendment.declarations,
    sites: sites.map((site) => [site.site_id, site.effective_on]),
  });
}
