import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Which of these subjects had their blind broken (the subject list's badge); never their groups. */
export async function unblindedAmong(
  db: Kysely<Database>,
  subjectIds: readonly number[],
): Promise<Set<number>> {
  if (subjectIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('subject_unblindings')
    .select('subject_id')
    .where('subject_id', 'in', [...subjectIds])
    .execute();
  return new Set(rows.map((row) => row.subject_id));
}
