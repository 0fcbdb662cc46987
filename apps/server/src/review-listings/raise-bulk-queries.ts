import type { bulkRaiseQueriesRequestSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import {
  insertQuery,
  type PreparedQuery,
  prepareQuery,
  refreshAfterQueries,
} from '../queries/create-query.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';

export type BulkRaiseQueriesInput = z.output<typeof bulkRaiseQueriesRequestSchema>;

/**
 * A monitor or data manager raises one manual query per chosen item, all with one text, all or
 * nothing, through the queries feature's own command (`prepareQuery` + `insertQuery`): every target is
 * checked as a single query would be — the subject in scope with `query.open` at its site (404, 403),
 * the form and visit of the subject (404), the item one of the form's (422) — and a lock on any of them
 * refuses the whole request (423; a freeze allows queries). An item that already has an unresolved
 * (open or answered) query refuses it too (409 `review_query_exists`, `details.targets` naming them):
 * a second thread on one item splits the conversation. The same item twice in one request is raised
 * once. Each query is audited as `query.opened` and the request once as `review.queries_raised`
 * listing the ids, in one transaction; each subject's read model is refreshed once.
 */
export async function raiseBulkQueries(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: BulkRaiseQueriesInput,
): Promise<number[]> {
  authorize(principal, 'query.open', { studyId });
  const prepared: PreparedQuery[] = [];
  const seen = new Set<string>();
  for (const target of request.targets) {
    const query = await prepareQuery(db, principal, studyId, {
      ...target,
      text: request.text,
      assignee: 'site',
    });
    const key = `${query.subject.id} ${target.visitKey} ${target.formKey} ${query.itemPath}`;
    if (seen.has(key)) continue;
    seen.add(key);
    prepared.push(query);
  }
  const subjectIds = [...new Set(prepared.map((query) => query.subject.id))].sort((a, b) => a - b);
  const at = new Date();
  return inTransaction(db, async (trx) => {
    await lockSubjectsInIdOrder(trx, { ids: subjectIds });
    const unresolved = await trx
      .selectFrom('queries')
      .select(['subject_id', 'visit_key', 'form_key', 'item_path'])
      .where('subject_id', 'in', subjectIds)
      .where('status', 'in', ['open', 'answered'])
      .execute();
    const taken = new Set(
      unresolved.map(
        (query) => `${query.subject_id} ${query.visit_key} ${query.form_key} ${query.item_path}`,
      ),
    );
    const clashes = prepared.filter((query) =>
      taken.has(`${query.subject.id} ${query.request.visitKey} ${query.request.formKey} ${query.itemPath}`),
    );
    if (clashes.length > 0) {
      throw new AppError(
        409,
        'review_query_exists',
        { count: clashes.length },
        {
          targets: clashes.map((query) => ({
            subjectPk: query.subject.id,
            visitKey: query.request.visitKey,
            formKey: query.request.formKey,
            itemPath: query.itemPath,
          })),
        },
      );
    }
    const ids: number[] = [];
    for (const query of prepared) ids.push(await insertQuery(trx, principal, actor, query, at));
    const definition = prepared[0]?.definition;
    if (definition) for (const subjectId of subjectIds) await refreshAfterQueries(trx, definition, subjectId);
    await recordAudit(trx, actor, {
      type: 'review.queries_raised',
      entityType: 'study',
      entityId: studyId,
      studyId,
      after: { count: ids.length, queryIds: ids, text: request.text },
    });
    return ids;
  });
}
