import type { bulkQueryRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Principal } from '../auth/principal.ts';
import { refreshAfterQueryChange } from '../data-entry/form-data.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, QueryRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';
import { applyActionInTransaction, failingChecksOf, keyOfQuery } from './act-on-query.ts';
import { findQueryInScope, mayAct } from './query-access.ts';
import { applyQueryAction } from './query-workflow.ts';

export type BulkQueryInput = z.output<typeof bulkQueryRequestSchema>;

/**
 * A monitor closes or cancels many queries with one reason, all or nothing: every query must be in
 * the reader's scope (404 otherwise), theirs to manage (403) and in a state that takes the action
 * (409 `query_state_conflict` listing each refused query with its state); then each changes and is
 * audited on its own, in one transaction.
 */
export async function bulkQueryAction(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: BulkQueryInput,
): Promise<number> {
  const current = await currentStudyDefinition(db, studyId);
  if (!current) throw new AppError(404, 'not_found');
  const ids = [...new Set(request.queryIds)].sort((a, b) => a - b);
  return inTransaction(db, async (trx) => {
    // Subjects first (as saves lock them), then the queries.
    const seen: QueryRow[] = [];
    for (const id of ids) seen.push(await findQueryInScope(trx, principal, studyId, id));
    const subjectIds = [...new Set(seen.map((query) => query.subject_id))].sort((a, b) => a - b);
    await lockSubjectsInIdOrder(trx, { ids: subjectIds });
    const queries: QueryRow[] = [];
    for (const id of ids)
      queries.push(await findQueryInScope(trx, principal, studyId, id, { forUpdate: true }));
    if (queries.some((query) => !mayAct(principal, request.action, query)))
      throw new AppError(403, 'forbidden');
    const refused = queries.filter(
      (query) =>
        !applyQueryAction(request.action, {
          state: query.status,
          kind: query.kind,
          message: request.text,
          checkStillFails: true,
        }).allowed,
    );
    if (refused.length > 0) {
      throw new AppError(
        409,
        'query_state_conflict',
        {},
        {
          action: request.action,
          queries: refused.map((query) => ({ id: query.id, state: query.status, kind: query.kind })),
        },
      );
    }
    // Whether each system query's check still fails (recorded with a closure): one evaluation per subject.
    const failing = new Map<number, Set<string>>();
    for (const query of queries) {
      if (query.kind !== 'system' || failing.has(query.subject_id)) continue;
      failing.set(query.subject_id, await failingChecksOf(trx, current.definition, query.subject_id));
    }
    for (const query of queries) {
      await applyActionInTransaction(
        trx,
        principal,
        actor,
        current.definition,
        query,
        request.action,
        { text: request.text },
        { stillFails: failing.get(query.subject_id)?.has(keyOfQuery(query)) ?? false },
      );
    }
    for (const subjectId of subjectIds) {
      await refreshAfterQueryChange(trx, current.definition, subjectId);
      await refreshSubjectFacts(trx, subjectId, { definition: current.definition });
    }
    return queries.length;
  });
}
