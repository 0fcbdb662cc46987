import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Whether a site id (from a request) names a site of this study: not of another study, nor none. */
export async function isSiteOfStudy(
  executor: Kysely<Database> | Transaction<Database>,
  studyId: number,
  siteId: number,
): Promise<boolean> {
  const site = await executor
    .selectFrom('sites')
    .select('id')
    .where('id', '=', siteId)
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  return site !== undefined;
}

/**
 * Whether every site id (from a request) names a site of this study: one unknown or foreign id, and
 * the caller refuses the whole list (`unknown_site`). No ids at all is trivially true.
 */
export async function areSitesOfStudy(
  executor: Kysely<Database> | Transaction<Database>,
  studyId: number,
  siteIds: readonly number[],
): Promise<boolean> {
  const distinct = [...new Set(siteIds)];
  if (distinct.length === 0) return true;
  const found = await executor
    .selectFrom('sites')
    .select('id')
    .where('study_id', '=', studyId)
    .where('id', 'in', distinct)
    .execute();
  return found.length === distinct.length;
}
