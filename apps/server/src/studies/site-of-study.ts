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
