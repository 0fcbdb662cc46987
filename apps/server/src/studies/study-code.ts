import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The study's code, which names its files and messages (`TMP-2026_queries_….csv`). For a study the
 * caller has already found: a missing one throws (Kysely's NoResultError), it is not a 404.
 */
export async function readStudyCode(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
): Promise<string> {
  const study = await db
    .selectFrom('studies')
    .select('code')
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  return study.code;
}
