import type { AmendmentMigrationsResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { requirePublishedAmendmentRow } from '../amendments/published-amendment.ts';
import type { Database } from '../db/schema.ts';
import { type ErrorCode, errorMessage } from '../http/error-messages.ts';
import type { Language } from '../http/language.ts';
import type { MigrationFailure } from './run-migration-turn.ts';

/**
 * `GET …/amendments/:amendmentId/migrations`: the amendment's jobs, newest first, with their progress
 * and failures in the reader's language, and how many of the study's subjects are on each side.
 */
export async function listMigrations(
  db: Kysely<Database>,
  studyId: number,
  amendmentId: number,
  language: Language,
): Promise<AmendmentMigrationsResponse> {
  // Polled every 2 s while a job runs: the row's versions, not both definitions and the change set.
  const amendment = await requirePublishedAmendmentRow(db, studyId, amendmentId);
  const rows = await db
    .selectFrom('amendment_migrations as m')
    .leftJoin('users', 'users.id', 'm.requested_by')
    .leftJoin('sites', 'sites.id', 'm.site_id')
    .leftJoin('subjects', 'subjects.id', 'm.subject_id')
    .select([
      'm.id',
      'm.scope',
      'm.status',
      'm.total',
      'm.migrated',
      'm.held',
      'm.failures',
      'm.requested_by',
      'm.created_at',
      'm.finished_at',
      'users.name',
      'sites.code as site_code',
      'subjects.screening_number',
    ])
    .where('m.amendment_id', '=', amendmentId)
    .orderBy('m.id', 'desc')
    .limit(100)
    .execute();
  const counts = await db
    .selectFrom('subjects')
    .select(['definition_version', (eb) => eb.fn.countAll<number>().as('count')])
    .where('study_id', '=', studyId)
    .where('deleted_at', 'is', null)
    .where('definition_version', 'in', [amendment.from_version, amendment.to_version])
    .groupBy('definition_version')
    .execute();
  const countOf = (version: string) =>
    Number(counts.find((row) => row.definition_version === version)?.count ?? 0);
  return {
    migrations: rows.map((row) => {
      const failures = row.failures as MigrationFailure[];
      return {
        id: row.id,
        scope: row.scope,
        target: row.scope === 'site' ? row.site_code : row.scope === 'subject' ? row.screening_number : null,
        status: row.status,
        automatic: row.requested_by === null,
        requestedBy:
          row.requested_by === null
            ? null
            : { userId: row.requested_by, name: row.name ?? '', at: row.created_at.toISOString() },
        total: row.total,
        migrated: row.migrated,
        held: row.held,
        failed: failures.length,
        failures: failures.map((failure) => ({
          subjectId: failure.subjectId,
          message: errorMessage(failure.code as ErrorCode, language, failure.params),
        })),
        finishedAt: row.finished_at?.toISOString() ?? null,
      };
    }),
    subjects: { onFromVersion: countOf(amendment.from_version), onToVersion: countOf(amendment.to_version) },
  };
}
