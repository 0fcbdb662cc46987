import type { UnscheduledVisit } from '@cdms/contract';
import { unscheduledRepeatKey, unscheduledVisitKey } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A subject's unscheduled visits (issue 19 item 1) as the overview shows them: not deleted, by date then
 * repeat key, each with whether any of its forms holds saved data (two queries, whatever the count).
 */
export async function listUnscheduledVisits(
  executor: Executor,
  subjectId: number,
): Promise<UnscheduledVisit[]> {
  const rows = await executor
    .selectFrom('unscheduled_visits')
    .select(['repeat_key', 'visit_date', 'reason', 'created_at'])
    .where('subject_id', '=', subjectId)
    .where('deleted_at', 'is', null)
    .orderBy('visit_date')
    .orderBy('repeat_key')
    .execute();
  if (rows.length === 0) return [];
  const withData = await executor
    .selectFrom('form_instances')
    .select('visit_key')
    .distinct()
    .where('subject_id', '=', subjectId)
    .where('has_data', '=', true)
    .where(
      'visit_key',
      'in',
      rows.map((row) => unscheduledVisitKey(row.repeat_key)),
    )
    .execute();
  const saved = new Set(withData.map((row) => row.visit_key));
  return rows.map((row) => ({
    visitKey: unscheduledVisitKey(row.repeat_key),
    repeatKey: row.repeat_key,
    visitDate: row.visit_date,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
    hasData: saved.has(unscheduledVisitKey(row.repeat_key)),
  }));
}

/**
 * Every path that reads or writes a visit's forms by key calls this: a scheduled key passes (the
 * definition decides), an unscheduled key must name a visit the subject has and has not deleted — 404
 * otherwise, as for any form the subject does not have.
 */
export async function requireVisitOfSubject(
  executor: Executor,
  subjectId: number,
  visitKey: string,
): Promise<void> {
  const repeatKey = unscheduledRepeatKey(visitKey);
  if (repeatKey === undefined) return;
  const row = await executor
    .selectFrom('unscheduled_visits')
    .select('id')
    .where('subject_id', '=', subjectId)
    .where('repeat_key', '=', repeatKey)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
}
