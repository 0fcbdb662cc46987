import {
  type FormValues,
  getFormLayout,
  getItemCodes,
  isEmptyEntry,
  type JsonValue,
  type StudyDefinition,
  sameEntry,
} from '@cdms/study';
import type { Transaction } from 'kysely';
import type { AfterChange } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import type { Database, QueryRow } from '../db/schema.ts';
import { withParticle } from '../http/korean-particles.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';
import { addQueryMessage } from './query-messages.ts';

/**
 * Issue 14: when a saved value changes, each open or answered query on that item gets a message from
 * the system — "value changed from A to B", in Korean and English, coded values by their labels — so
 * the monitor reading the thread sees the correction next to the answer. Called by `writeForm` inside
 * the save's transaction; each message is audited.
 */
export interface ValueChangeInput {
  subject: SubjectWithSite;
  definition: StudyDefinition;
  visitKey: string;
  formKey: string;
  before: FormValues;
  after: FormValues;
  changedKeys: string[];
  actor: AuditActor;
  /** The subject's open and answered queries (the save has read them), oldest first. */
  openQueries: readonly Pick<QueryRow, 'id' | 'visit_key' | 'form_key' | 'item_path' | 'status'>[];
}

const ITEM_PATH = /^([A-Za-z][A-Za-z0-9_]*)(?:\[(\d+)\]\.([A-Za-z][A-Za-z0-9_]*))?$/;

/** The value a query's path names inside a form's values (a plain item, or a column of a row). */
function valueAt(
  values: FormValues,
  top: string,
  row: number | undefined,
  column: string | undefined,
): unknown {
  const value = values[top];
  if (row === undefined || column === undefined) return value;
  if (!Array.isArray(value)) return undefined;
  const entry = value[row];
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry)
    ? (entry as Record<string, JsonValue>)[column]
    : undefined;
}

/** A value as a person reads it: codes by their label, lists joined, nothing as "(none)". */
export function describeValue(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  itemKey: string,
  value: unknown,
  language: 'ko' | 'en',
): string {
  if (isEmptyEntry(value)) return language === 'ko' ? '(없음)' : '(none)';
  const item = getFormLayout(definition, visitKey, formKey)?.items.get(itemKey)?.item;
  const codes = item ? getItemCodes(definition, item) : [];
  const one = (entry: unknown): string => {
    const code = codes.find((candidate) => candidate.code === entry);
    if (code) return code.label[language];
    if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean')
      return String(entry);
    return JSON.stringify(entry);
  };
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}

export async function postValueChangeMessages(
  trx: Transaction<Database>,
  input: ValueChangeInput,
): Promise<void> {
  if (input.changedKeys.length === 0) return;
  const { subject, definition, visitKey, formKey } = input;
  const queries = input.openQueries.filter(
    (query) => query.visit_key === visitKey && query.form_key === formKey,
  );
  const prefix = `${visitKey}.${formKey}.`;
  const changed = new Set(input.changedKeys);
  for (const query of queries) {
    if (!query.item_path.startsWith(prefix)) continue;
    const match = ITEM_PATH.exec(query.item_path.slice(prefix.length));
    if (!match) continue;
    const [, top = '', rowText, column] = match;
    if (!changed.has(top)) continue;
    const row = rowText === undefined ? undefined : Number(rowText);
    const from = valueAt(input.before, top, row, column);
    const to = valueAt(input.after, top, row, column);
    if (sameEntry(from, to)) continue;
    const itemKey = column ?? top;
    const text = (language: 'ko' | 'en') => {
      const a = describeValue(definition, visitKey, formKey, itemKey, from, language);
      const b = describeValue(definition, visitKey, formKey, itemKey, to, language);
      return language === 'ko'
        ? `값이 "${a}"에서 ${withParticle(`"${b}"`, '으로/로')} 변경되었습니다.`
        : `The value changed from "${a}" to "${b}".`;
    };
    const proposed = typeof to === 'string' || typeof to === 'number' || typeof to === 'boolean' ? to : null;
    const messageId = await addQueryMessage(trx, {
      queryId: query.id,
      kind: 'value_changed',
      text: { ko: text('ko'), en: text('en') },
      authorUserId: null,
      authorRole: null,
      proposedValue: proposed,
    });
    await recordAudit(trx, input.actor, {
      type: 'query.commented',
      entityType: 'query',
      entityId: query.id,
      ...subjectAuditScope(subject),
      after: {
        messageId,
        kind: 'value_changed',
        itemPath: query.item_path,
        from: from ?? null,
        to: to ?? null,
      },
    });
  }
}

/** After a save: the open and answered queries on changed items say what changed, before checks close any. */
export const postValueChangeMessagesAfterChange: AfterChange = async (change) => {
  await postValueChangeMessages(change.trx, {
    subject: change.subject,
    definition: change.definition,
    visitKey: change.visitKey,
    formKey: change.formKey,
    before: change.before,
    after: change.after,
    changedKeys: change.changedKeys,
    actor: change.actor,
    openQueries: change.activeQueries.filter(
      (query) => query.status === 'open' || query.status === 'answered',
    ),
  });
};
