import type { CheckResult, FormSet, SubjectEvaluation } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { ActiveQuery, AfterChange, OpenQuery, StoredSubjectData } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Database } from '../db/schema.ts';
import { addQueryMessage } from '../query-messages/query-messages.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';
import { formKeyOf } from './load-subject-for-save.ts';

/** After a save: the system queries of the forms it evaluated follow the checks that fail now. */
export const syncSystemQueriesAfterChange: AfterChange = async (change) => {
  const changedPrefixes = change.changedKeys.map(
    (itemKey) => `${change.visitKey}.${change.formKey}.${itemKey}`,
  );
  const systemQueries = await syncSystemQueries(
    change.trx,
    change.subject,
    change.stored,
    change.evaluation,
    change.actor,
    (path) => changedPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}[`)),
    change.activeQueries,
    change.walked,
  );
  change.effects.openQueries = systemQueries.stillOpen;
  change.effects.systemQueriesChanged = systemQueries.changed;
};

export function failingQueryChecks(
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
): Map<string, CheckResult> {
  const failing = new Map<string, CheckResult>();
  for (const form of evaluation.forms) {
    if (!stored.instances.get(formKeyOf(form.visitKey, form.formKey))?.has_data) continue;
    for (const check of form.checks) {
      if (check.severity === 'query')
        failing.set(systemQueryKey(form.visitKey, form.formKey, check.checkId, check.path), check);
    }
  }
  return failing;
}

export const systemQueryKey = (visitKey: string, formKey: string, checkId: string | null, path: string) =>
  `${visitKey}|${formKey}|${checkId}|${path}`;

/**
 * One open system query per failing "query" check and item on saved forms; a query whose check no
 * longer fails closes itself, with a message in its thread. Both are audited. A query a person closed
 * while its check still failed (`closed_over_check`) is not raised again until the item's value
 * changes.
 */
async function syncSystemQueries(
  trx: Transaction<Database>,
  subject: SubjectWithSite,
  stored: StoredSubjectData,
  evaluation: SubjectEvaluation,
  actor: AuditActor,
  changedPaths: (path: string) => boolean,
  /** The subject's open and answered queries and those closed over a failing check. */
  activeQueries: readonly ActiveQuery[],
  /** The forms the save evaluated: the system queries of the others stay as they are. */
  walked: FormSet,
): Promise<{ stillOpen: OpenQuery[]; changed: boolean }> {
  const failing = failingQueryChecks(stored, evaluation);
  const existing = activeQueries.filter(
    (query) => query.kind === 'system' && walked.has(query.visit_key, query.form_key),
  );
  const closedIds = new Set<number>();
  const opened: OpenQuery[] = [];
  const openKeys = new Set<string>();
  const settledKeys = new Set<string>();
  for (const query of existing) {
    const queryKey = systemQueryKey(query.visit_key, query.form_key, query.check_id, query.item_path);
    if (query.status !== 'open' && query.status !== 'answered') {
      settledKeys.add(queryKey);
      continue;
    }
    openKeys.add(queryKey);
    if (failing.has(queryKey)) continue;
    await trx
      .updateTable('queries')
      .set({ status: 'closed', closed_at: new Date() })
      .where('id', '=', query.id)
      .execute();
    closedIds.add(query.id);
    await addQueryMessage(trx, {
      queryId: query.id,
      kind: 'closed_by_check',
      text: CLOSED_BY_CHECK,
      authorUserId: null,
      authorRole: null,
    });
    await recordAudit(trx, actor, {
      type: 'query.closed',
      entityType: 'query',
      entityId: query.id,
      ...subjectAuditScope(subject),
      before: { status: query.status },
      after: { status: 'closed', itemPath: query.item_path, checkId: query.check_id },
      reason: CLOSED_BY_CHECK.en,
    });
  }
  for (const [queryKey, check] of failing) {
    if (openKeys.has(queryKey)) continue;
    if (settledKeys.has(queryKey) && !changedPaths(check.path)) continue;
    const query = await trx
      .insertInto('queries')
      .values({
        study_id: subject.study_id,
        site_id: subject.site_id,
        subject_id: subject.id,
        visit_key: check.visitKey,
        form_key: check.formKey,
        item_path: check.path,
        check_id: check.checkId,
        kind: 'system',
        status: 'open',
        message: JSON.stringify(check.message),
      })
      .returning(['id', 'opened_at'])
      .executeTakeFirstOrThrow();
    opened.push({ visit_key: check.visitKey, form_key: check.formKey });
    await addQueryMessage(trx, {
      queryId: query.id,
      kind: 'opened',
      text: check.message,
      authorUserId: null,
      authorRole: null,
      at: query.opened_at,
    });
    await recordAudit(trx, actor, {
      type: 'query.opened',
      entityType: 'query',
      entityId: query.id,
      ...subjectAuditScope(subject),
      after: {
        status: 'open',
        kind: 'system',
        itemPath: check.path,
        checkId: check.checkId,
        message: check.message,
      },
    });
  }
  const stillOpen = [
    ...activeQueries.filter(
      (query) => (query.status === 'open' || query.status === 'answered') && !closedIds.has(query.id),
    ),
    ...opened,
  ];
  // Whether it opened or closed any: the subject's query counts moved.
  return { stillOpen, changed: closedIds.size > 0 || opened.length > 0 };
}

const CLOSED_BY_CHECK = {
  ko: '데이터가 더 이상 점검 조건에 해당하지 않아 시스템이 종료했습니다.',
  en: 'The data no longer fail the check (closed by the system).',
};
