import type { QueryListRow, QueryMessage, Role } from '@cdms/contract';
import { getFormLayout, resolveVisit, type StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database, QueryMessageRow, QueryRow } from '../db/schema.ts';

/** Shared by the list, the detail and the download: a query row and its messages as the contract shapes them. */

type Localized = { ko: string; en: string };

const ITEM_PATH = /^([A-Za-z][A-Za-z0-9_]*)(?:\[(\d+)\]\.([A-Za-z][A-Za-z0-9_]*))?$/;

export function queryLabels(
  definition: StudyDefinition | null,
  visitKey: string,
  formKey: string,
  itemPath: string,
): { visitLabel: Localized; formLabel: Localized; itemLabel: Localized } {
  const visit = definition ? resolveVisit(definition, visitKey) : undefined;
  const layout = definition ? getFormLayout(definition, visitKey, formKey) : undefined;
  const visitLabel = visit?.label ?? { ko: visitKey, en: visitKey };
  const formLabel = layout?.form.label ?? { ko: formKey, en: formKey };
  if (itemPath === '') return { visitLabel, formLabel, itemLabel: formLabel };
  const prefix = `${visitKey}.${formKey}.`;
  const match = itemPath.startsWith(prefix) ? ITEM_PATH.exec(itemPath.slice(prefix.length)) : null;
  const [, top = '', row, column] = match ?? [];
  const item = layout?.items.get(column ?? top)?.item;
  const label = item?.label ?? { ko: itemPath, en: itemPath };
  const itemLabel =
    row === undefined
      ? label
      : { ko: `${label.ko} (${Number(row) + 1}행)`, en: `${label.en} (row ${Number(row) + 1})` };
  return { visitLabel, formLabel, itemLabel };
}

export type MessageWithAuthor = QueryMessageRow & { author_name: string | null };

export function presentMessage(row: MessageWithAuthor): QueryMessage {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    author:
      row.author_user_id === null
        ? null
        : {
            userId: row.author_user_id,
            name: row.author_name ?? '',
            role: (row.author_role?.split(',')[0] ?? 'ADMIN') as Role,
          },
    at: row.created_at.toISOString(),
    proposedValue: row.proposed_value ?? null,
  };
}

function messagesQuery(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('query_messages as m')
    .leftJoin('users as u', 'u.id', 'm.author_user_id')
    .selectAll('m')
    .select('u.name as author_name');
}

/** The last message of each query (one query for a page of rows). */
export async function lastMessagesOf(
  db: Kysely<Database> | Transaction<Database>,
  queryIds: number[],
): Promise<Map<number, QueryMessage>> {
  if (queryIds.length === 0) return new Map();
  const rows = await messagesQuery(db)
    .where('m.query_id', 'in', queryIds)
    .distinctOn('m.query_id')
    .orderBy('m.query_id')
    .orderBy('m.id', 'desc')
    .execute();
  return new Map(rows.map((row) => [row.query_id, presentMessage(row)]));
}

export async function threadOf(
  db: Kysely<Database> | Transaction<Database>,
  queryId: number,
): Promise<QueryMessage[]> {
  const rows = await messagesQuery(db).where('m.query_id', '=', queryId).orderBy('m.id').execute();
  return rows.map(presentMessage);
}

export type QueryRowWithSubject = QueryRow & {
  screening_number: string;
  randomization_number: string | null;
  site_code: string;
  age_days: number;
};

/** A message for a query without any (cannot happen after the backfill; kept total for the type). */
function openingMessage(row: QueryRow): QueryMessage {
  return {
    id: 0,
    kind: 'opened',
    text: row.message,
    author: null,
    at: row.opened_at.toISOString(),
    proposedValue: null,
  };
}

export function presentQueryRow(
  row: QueryRowWithSubject,
  definition: StudyDefinition | null,
  lastMessage: QueryMessage | undefined,
): QueryListRow {
  return {
    id: row.id,
    kind: row.kind,
    state: row.status,
    reopened: row.reopened,
    assignee: row.assignee,
    subject: {
      pk: row.subject_id,
      subjectId: row.screening_number,
      registrationNumber: row.randomization_number,
      siteId: row.site_id,
      site: row.site_code,
    },
    visitKey: row.visit_key,
    formKey: row.form_key,
    itemPath: row.item_path,
    ...queryLabels(definition, row.visit_key, row.form_key, row.item_path),
    checkId: row.check_id,
    openedAt: row.opened_at.toISOString(),
    ageDays: Number(row.age_days),
    closedAt: row.closed_at ? row.closed_at.toISOString() : null,
    messageCount: row.message_count,
    lastMessage: lastMessage ?? openingMessage(row),
  };
}
