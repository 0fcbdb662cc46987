import { approvalInEffect } from '@cdms/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The definition version a subject registered today at a site starts on (issue 49): the study's
 * published amendments in the order they were published, each taken while it is in effect at the
 * site (its approval date there on or before `today`); the first one that is not stops the walk, and
 * the subject starts on the version before it. Null for a study without a published amendment: its
 * subjects follow the newest version.
 */
export async function definitionVersionAtSite(
  trx: Transaction<Database>,
  studyId: number,
  siteId: number,
  today: string,
): Promise<string | null> {
  const amendments = await trx
    .selectFrom('study_amendments as a')
    .leftJoin('study_amendment_sites as s', (join) =>
      join.onRef('s.amendment_id', '=', 'a.id').on('s.site_id', '=', siteId),
    )
    .select(['a.from_version', 'a.to_version', 's.effective_on'])
    .where('a.study_id', '=', studyId)
    .where('a.status', '=', 'published')
    .orderBy('a.published_at')
    .orderBy('a.id')
    .execute();
  const [first] = amendments;
  if (!first) return null;
  let version = first.from_version;
  for (const amendment of amendments) {
    // Dates are read as text (YYYY-MM-DD, db/database.ts).
    if (!approvalInEffect(amendment.effective_on, today) || amendment.to_version === null) break;
    version = amendment.to_version;
  }
  return version;
}
