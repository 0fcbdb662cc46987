import type { QueryMessageKind } from '@cdms/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface NewQueryMessage {
  queryId: number;
  kind: QueryMessageKind;
  /** A person's words are the same in both languages; the system's are translated. */
  text: { ko: string; en: string };
  /** Null for the system. */
  authorUserId: number | null;
  authorRole: string | null;
  proposedValue?: string | number | boolean | null | undefined;
  /** When it was written; now unless the demo seed dates it back. */
  at?: Date | undefined;
}

/** Adds a message to a query's thread and keeps the query's message count and last message time. */
export async function addQueryMessage(trx: Transaction<Database>, message: NewQueryMessage): Promise<number> {
  const at = message.at ?? new Date();
  // One statement: the message inserted and the query's count and time moved with it.
  const row = await trx
    .with('message', (db) =>
      db
        .insertInto('query_messages')
        .values({
          query_id: message.queryId,
          kind: message.kind,
          text: JSON.stringify(message.text),
          author_user_id: message.authorUserId,
          author_role: message.authorRole,
          created_at: at,
          proposed_value: message.proposedValue === undefined ? null : JSON.stringify(message.proposedValue),
        })
        .returning('id'),
    )
    .updateTable('queries')
    .set((eb) => ({ message_count: eb('message_count', '+', 1), last_message_at: at }))
    .where('id', '=', message.queryId)
    .returning((eb) => eb.selectFrom('message').select('message.id').as('id'))
    .executeTakeFirstOrThrow();
  if (row.id === null) throw new Error(`query ${message.queryId}: the message was not stored`);
  return row.id;
}

/** The same words in both languages (what a person wrote). */
export const sameInBoth = (text: string) => ({ ko: text, en: text });
