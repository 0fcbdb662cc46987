import { todayInKorea } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { evaluateSubject } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor, AuditEventType } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { loadSubjectData, refreshAfterQueryChange } from '../data-entry/form-data.ts';
import { failingQueryChecks, systemQueryKey } from '../data-entry/sync-system-queries.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, QueryRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { addLabRangeChecks } from '../lab-range-rules/lab-range-checks.ts';
import { queryHoldTarget, refuseWriteUnderHolds } from '../locks/holds-in-force.ts';
import { notifyQueryEvent } from '../notifications/notify-query.ts';
import { addQueryMessage, sameInBoth } from '../query-messages/query-messages.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { lockLiveSubject } from '../subjects/lock-live-subject.ts';
import { refuseUntrainedWriter } from '../training-gate/training-gate.ts';
import { actingRole, findQueryInScope, mayAct, queryPowers } from './query-access.ts';
import { applyQueryAction, type QueryAction } from './query-workflow.ts';

/**
 * The five actions on a query (answer, comment, close, cancel, reopen), one boring path for all:
 * find it in scope (404) → the action's permission (403) → the workflow's decision on its state
 * (409 `query_state_conflict` with the current state; 422 when a reason is missing or a system query
 * would be cancelled) → the new state, the message and the audit record in one transaction, with the
 * form statuses and the subject's read-model rows refreshed.
 */

export interface QueryActionRequest {
  text?: string | undefined;
  proposedValue?: string | number | boolean | null | undefined;
}

const AUDIT_TYPE: Record<QueryAction, AuditEventType> = {
  answer: 'query.answered',
  comment: 'query.commented',
  close: 'query.closed',
  cancel: 'query.cancelled',
  reopen: 'query.reopened',
};

const MESSAGE_KIND = {
  answer: 'answer',
  comment: 'comment',
  close: 'close',
  cancel: 'cancel',
  reopen: 'reopen',
} as const;

/** The failing "query" checks of a subject's saved data, by system-query key. */
export async function failingChecksOf(
  executor: Kysely<Database> | Transaction<Database>,
  definition: StudyDefinition,
  subjectId: number,
): Promise<Set<string>> {
  const stored = await loadSubjectData(executor, subjectId);
  const evaluation = evaluateSubject(definition, stored.entered, { today: todayInKorea() });
  await addLabRangeChecks(executor, definition, { subjectId }, evaluation);
  return new Set(failingQueryChecks(stored, evaluation).keys());
}

export const keyOfQuery = (query: Pick<QueryRow, 'visit_key' | 'form_key' | 'check_id' | 'item_path'>) =>
  systemQueryKey(query.visit_key, query.form_key, query.check_id, query.item_path);

/** Whether the system query's check fails on the subject's saved data (false for manual queries). */
export async function checkStillFails(
  executor: Kysely<Database> | Transaction<Database>,
  definition: StudyDefinition,
  query: Pick<QueryRow, 'kind' | 'subject_id' | 'visit_key' | 'form_key' | 'check_id' | 'item_path'>,
): Promise<boolean> {
  if (query.kind !== 'system') return false;
  return (await failingChecksOf(executor, definition, query.subject_id)).has(keyOfQuery(query));
}

/** Lock the subject (one writer per subject, as saves do), then the query. */
export async function lockQuery(
  trx: Transaction<Database>,
  principal: Principal,
  studyId: number,
  queryId: number,
) {
  const seen = await findQueryInScope(trx, principal, studyId, queryId);
  await lockLiveSubject(trx, seen.subject_id);
  return findQueryInScope(trx, principal, studyId, queryId, { forUpdate: true });
}

/**
 * The action on one locked query, inside the caller's transaction (the bulk action runs it for
 * each). Refreshing the subject's rows is the caller's last step.
 */
export async function applyActionInTransaction(
  trx: Transaction<Database>,
  principal: Principal,
  actor: AuditActor,
  definition: StudyDefinition,
  query: QueryRow,
  action: QueryAction,
  request: QueryActionRequest,
  options: { at?: Date | undefined; stillFails?: boolean | undefined } = {},
): Promise<void> {
  if (!mayAct(principal, action, query)) throw new AppError(403, 'forbidden');
  // Site staff answering (or commenting as the site, without managing) enter data: the training gate.
  const asSite =
    action === 'answer' ||
    (action === 'comment' && !queryPowers(principal, query.study_id, query.site_id).manage);
  if (asSite) await refuseUntrainedWriter(trx, principal, query.study_id, 'query.answer');
  await refuseWriteUnderHolds(
    trx,
    action === 'answer' ? 'query.answer' : 'query.manage',
    queryHoldTarget(query),
  );
  const stillFails =
    action === 'close' && query.kind === 'system'
      ? (options.stillFails ?? (await checkStillFails(trx, definition, query)))
      : false;
  const text = request.text?.trim() ? request.text.trim() : null;
  const outcome = applyQueryAction(action, {
    state: query.status,
    kind: query.kind,
    message: text,
    checkStillFails: stillFails,
  });
  if (!outcome.allowed) {
    if (outcome.reason === 'not_allowed_in_state')
      throw new AppError(409, 'query_state_conflict', {}, { state: query.status, action });
    if (outcome.reason === 'system_query_not_cancellable')
      throw new AppError(422, 'system_query_not_cancellable', {}, { state: query.status });
    throw new AppError(
      422,
      'query_reason_required',
      {},
      { state: query.status, checkStillFails: stillFails },
    );
  }
  const at = options.at ?? new Date();
  if (action === 'reopen' && query.kind === 'system') {
    // The check may have raised a new query on the item meanwhile: one open system query per item.
    const other = await trx
      .selectFrom('queries')
      .select('id')
      .where('subject_id', '=', query.subject_id)
      .where('kind', '=', 'system')
      .where('visit_key', '=', query.visit_key)
      .where('form_key', '=', query.form_key)
      .where('check_id', '=', query.check_id)
      .where('item_path', '=', query.item_path)
      .where('status', 'in', ['open', 'answered'])
      .where('id', '<>', query.id)
      .executeTakeFirst();
    if (other)
      throw new AppError(
        409,
        'query_state_conflict',
        {},
        { state: query.status, action, openQueryId: other.id },
      );
  }
  const next = outcome.next;
  if (next !== query.status || action === 'reopen' || action === 'close') {
    await trx
      .updateTable('queries')
      .set({
        status: next,
        closed_at: next === 'closed' || next === 'cancelled' ? at : null,
        ...(action === 'reopen' ? { reopened: true, closed_over_check: false } : {}),
        ...(action === 'close' && stillFails ? { closed_over_check: true } : {}),
      })
      .where('id', '=', query.id)
      .execute();
  }
  const permission = action === 'answer' ? 'query.answer' : action === 'comment' ? null : 'query.manage';
  const role =
    permission !== null
      ? actingRole(principal, permission, query.study_id, query.site_id)
      : (actingRole(principal, 'query.answer', query.study_id, query.site_id) ??
        actingRole(principal, 'query.manage', query.study_id, query.site_id));
  const messageId =
    text === null
      ? null
      : await addQueryMessage(trx, {
          queryId: query.id,
          kind: MESSAGE_KIND[action],
          text: sameInBoth(text),
          authorUserId: principal.user.id,
          authorRole: role,
          proposedValue: action === 'answer' ? request.proposedValue : undefined,
          at,
        });
  if (text === null) {
    // A closure without words still appears in the thread, in the system's words.
    await addQueryMessage(trx, {
      queryId: query.id,
      kind: MESSAGE_KIND[action],
      text: { ko: '쿼리를 종료했습니다.', en: 'Closed the query.' },
      authorUserId: principal.user.id,
      authorRole: role,
      at,
    });
  }
  await recordAudit(trx, actor, {
    type: AUDIT_TYPE[action],
    entityType: 'query',
    entityId: query.id,
    studyId: query.study_id,
    siteId: query.site_id,
    subjectId: query.subject_id,
    before: { status: query.status },
    after: {
      status: next,
      kind: query.kind,
      itemPath: query.item_path,
      ...(query.check_id ? { checkId: query.check_id } : {}),
      ...(action === 'close' && query.kind === 'system' ? { checkStillFails: stillFails } : {}),
      ...(messageId !== null ? { messageId, text } : {}),
      ...(action === 'answer' && request.proposedValue !== undefined
        ? { proposedValue: request.proposedValue }
        : {}),
    },
    reason: action === 'close' || action === 'cancel' || action === 'reopen' ? text : null,
  });
  if (action === 'answer')
    await notifyQueryEvent(trx, definition, query, 'query_answered', principal.user.id);
}

export async function actOnQuery(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  queryId: number,
  action: QueryAction,
  request: QueryActionRequest,
  options: { at?: Date } = {},
): Promise<void> {
  const current = await currentStudyDefinition(db, studyId);
  if (!current) throw new AppError(404, 'not_found');
  await inTransaction(db, async (trx) => {
    const query = await lockQuery(trx, principal, studyId, queryId);
    await applyActionInTransaction(
      trx,
      principal,
      actor,
      current.definition,
      query,
      action,
      request,
      options,
    );
    await refreshAfterQueryChange(trx, current.definition, query.subject_id);
    await refreshSubjectFacts(trx, query.subject_id, { definition: current.definition });
  });
}
