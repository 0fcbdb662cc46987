import type { Kysely, Transaction } from 'kysely';
import type { AmendmentMigrationsTable, Database } from '../db/schema.ts';

/**
 * The subjects a migration job moves: the study's, its site's or the one subject, not deleted, on the
 * amendment's `from` version (a moved subject is on another: a job run again moves only the rest).
 * Read on the index (study_id, definition_version, id).
 */
export function subjectsInScope(
  executor: Kysely<Database> | Transaction<Database>,
  job: Pick<AmendmentMigrationsTable, 'study_id' | 'scope' | 'site_id' | 'subject_id'>,
  fromVersion: string,
) {
  let query = executor
    .selectFrom('subjects')
    .where('subjects.study_id', '=', job.study_id)
    .where('subjects.definition_version', '=', fromVersion)
    .where('subjects.deleted_at', 'is', null);
  if (job.scope === 'site' && job.site_id !== null) query = query.where('subjects.site_id', '=', job.site_id);
  if (job.scope === 'subject' && job.subject_id !== null)
    query = query.where('subjects.id', '=', job.subject_id);
  return query;
}
