import type { Role } from '@cdms/contract';
import { type CreateQueryRequest, type createQueryRequestSchema, WHOLE_FORM_ITEM_PATH } from '@cdms/contract';
import { getFormLayout, type StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { refreshAfterQueryChange } from '../data-entry/form-data.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { notifyQueryEvent } from '../notifications/notify-query.ts';
import { addQueryMessage, sameInBoth } from '../query-messages/query-messages.ts';
import { refreshSubjectFacts } from '../read-model/refresh-subject-facts.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { lockLiveSubject } from '../subjects/lock-live-subject.ts';
import { findSubjectInScope, type SubjectWithSite } from '../subjects/subject-access.ts';
import { requireVisitOfSubject } from '../unscheduled-visits/unscheduled-visits.ts';
import { actingRole } from './query-access.ts';

export type CreateQueryInput = z.output<typeof createQueryRequestSchema>;

const ITEM_PATH = /^([A-Za-z][A-Za-z0-9_]*)(?:\[(\d{1,4})\]\.([A-Za-z][A-Za-z0-9_]*))?$/;

/**
 * The stored path of the item `itemPath` names in the form as shown in the visit, or null when it
 * names none: the whole form (''), `visit.form.item` for a plain item, `visit.form.group[row].column`
 * for a column of a repeating row (the paths FormDataResponse.queries carry). The same path without
 * its `visit.form.` prefix is taken too.
 */
export function itemPathOf(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  itemPath: string,
): string | null {
  if (itemPath === WHOLE_FORM_ITEM_PATH) return WHOLE_FORM_ITEM_PATH;
  const layout = getFormLayout(definition, visitKey, formKey);
  if (!layout) return null;
  const prefix = `${visitKey}.${formKey}.`;
  const relative = itemPath.startsWith(prefix) ? itemPath.slice(prefix.length) : itemPath;
  const match = ITEM_PATH.exec(relative);
  if (!match) return null;
  const [, top = '', row, column] = match;
  if (row === undefined || column === undefined) {
    const location = layout.items.get(top);
    return location !== undefined && location.groupKey === undefined ? `${prefix}${top}` : null;
  }
  const location = layout.items.get(column);
  return layout.groups.has(top) && location?.groupKey === top
    ? `${prefix}${top}[${Number(row)}].${column}`
    : null;
}

/** A manual query checked and ready to be written: its subject, definition, stored path and text. */
export interface PreparedQuery {
  studyId: number;
  subject: SubjectWithSite;
  definition: StudyDefinition;
  request: CreateQueryInput;
  itemPath: string;
  role: Role | null;
  text: { ko: string; en: string };
}

/**
 * The checks before a manual query is written, outside the transaction: the subject in the
 * principal's scope with `query.open` at its site (404/403), the form and visit of the subject
 * (404), the item one of the form's (422).
 */
export async function prepareQuery(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  request: CreateQueryInput,
  /** What allows raising it: `query.open`, or the coder's `coding.code` for a verbatim sent back (coding/). */
  action: 'query.open' | 'coding.code' = 'query.open',
): Promise<PreparedQuery> {
  const subject = await findSubjectInScope(db, principal, studyId, request.subjectPk, action);
  const current = await currentStudyDefinition(db, studyId);
  if (!current || !getFormLayout(current.definition, request.visitKey, request.formKey))
    throw new AppError(404, 'not_found');
  await requireVisitOfSubject(db, subject.id, request.visitKey);
  const itemPath = itemPathOf(current.definition, request.visitKey, request.formKey, request.itemPath);
  if (itemPath === null) throw new AppError(422, 'query_item_unknown');
  const role = actingRole(principal, action, studyId, subject.site_id);
  return {
    studyId,
    subject,
    definition: current.definition,
    request,
    itemPath,
    role,
    text: sameInBoth(request.text),
  };
}

/**
 * Writes a prepared query in the caller's transaction: the subject's row lock and the hold guard,
 * the query, its first message, the audit record and the notification. The caller refreshes the
 * subject's form statuses and facts afterwards (once per subject when it writes many:
 * `refreshAfterQueries`).
 */
export async function insertQuery(
  trx: Transaction<Database>,
  principal: Principal,
  actor: AuditActor,
  prepared: PreparedQuery,
  at: Date,
): Promise<number> {
  const { studyId, subject, request, itemPath, role, text } = prepared;
  // One writer per subject at a time, as for saves.
  await lockLiveSubject(trx, subject.id);
  await refuseWriteUnderHolds(trx, 'query.open', subjectTarget(subject, request));
  const query = await trx
    .insertInto('queries')
    .values({
      study_id: studyId,
      site_id: subject.site_id,
      subject_id: subject.id,
      visit_key: request.visitKey,
      form_key: request.formKey,
      item_path: itemPath,
      check_id: null,
      kind: 'manual',
      status: 'open',
      message: JSON.stringify(text),
      opened_at: at,
      opened_by: principal.user.id,
      assignee: request.assignee,
      last_message_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const messageId = await addQueryMessage(trx, {
    queryId: query.id,
    kind: 'opened',
    text,
    authorUserId: principal.user.id,
    authorRole: role,
    at,
  });
  await recordAudit(trx, actor, {
    type: 'query.opened',
    entityType: 'query',
    entityId: query.id,
    studyId,
    siteId: subject.site_id,
    subjectId: subject.id,
    after: {
      status: 'open',
      kind: 'manual',
      visitKey: request.visitKey,
      formKey: request.formKey,
      itemPath,
      assignee: request.assignee,
      messageId,
      text: request.text,
    },
  });
  await notifyQueryEvent(
    trx,
    prepared.definition,
    {
      id: query.id,
      study_id: studyId,
      site_id: subject.site_id,
      subject_id: subject.id,
      visit_key: request.visitKey,
      form_key: request.formKey,
      opened_by: principal.user.id,
    },
    'query_opened',
    principal.user.id,
  );
  return query.id;
}

/** A subject's form statuses and read-model facts after queries were raised on it. */
export async function refreshAfterQueries(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subjectId: number,
): Promise<void> {
  await refreshAfterQueryChange(trx, definition, subjectId);
  await refreshSubjectFacts(trx, subjectId, { definition });
}

/**
 * A monitor or data manager raises a manual query on an item (or the whole form) of a subject in
 * their scope: validate → authorize → the query, its first message and the audit record in one
 * transaction, with the subject's read-model rows and form statuses refreshed.
 */
export async function createQuery(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  request: CreateQueryInput,
  options: { at?: Date } = {},
): Promise<number> {
  const prepared = await prepareQuery(db, principal, studyId, request);
  const at = options.at ?? new Date();
  return inTransaction(db, async (trx) => {
    const id = await insertQuery(trx, principal, actor, prepared, at);
    await refreshAfterQueries(trx, prepared.definition, prepared.subject.id);
    return id;
  });
}

export type { CreateQueryRequest };
