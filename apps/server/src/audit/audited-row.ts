import type { Transaction, UpdateObject } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AuditActor, AuditEventInput } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';

/**
 * The tables whose rows a command changes with `updateRowAudited` or `deleteRowAudited`, and the
 * entity the audit record of such a change names: one place, so a row is named alike by every writer.
 */
const AUDITED_ENTITY = {
  data_exports: 'data_export',
  guidelines: 'guideline',
  holds: 'hold',
  lab_ranges: 'lab_range',
  memberships: 'membership',
  notices: 'notice',
  sites: 'site',
  studies: 'study',
  subjects: 'subject',
  task_notices: 'task_notice',
  training_modules: 'training_module',
  users: 'user',
} as const satisfies Partial<Record<keyof Database, AuditEventInput['entityType']>>;

export type AuditedTable = keyof typeof AUDITED_ENTITY;

/** What a row's audit record says besides naming the row: the event, its scope, before, after, reason. */
export type RowAuditEvent = Omit<AuditEventInput, 'entityType' | 'entityId'>;

/**
 * The transaction seen as what these steps need of an audited table: rows with an id. Kysely cannot
 * type a statement over a table named by a type parameter (its builders for the tables are a union it
 * cannot call); the caller's values are checked against the real table by the signatures below.
 */
function rowsById(trx: Transaction<Database>) {
  return trx as unknown as Transaction<Record<string, { id: number; [column: string]: unknown }>>;
}

/**
 * Changes one row (by its id) and records the audit event of the change, in the caller's transaction:
 * the record names the row, as `entityType` (from its table) and `entityId` (its id).
 */
export async function updateRowAudited<T extends AuditedTable>(
  trx: Transaction<Database>,
  actor: AuditActor,
  row: { table: T; id: number; set: UpdateObject<Database, T> },
  event: RowAuditEvent,
): Promise<void> {
  await rowsById(trx)
    .updateTable(row.table as string)
    .set(row.set)
    .where('id', '=', row.id)
    .execute();
  await recordAudit(trx, actor, { ...event, entityType: AUDITED_ENTITY[row.table], entityId: row.id });
}

/** Deletes one row (by its id) and records the audit event of it, as `updateRowAudited` does. */
export async function deleteRowAudited(
  trx: Transaction<Database>,
  actor: AuditActor,
  row: { table: AuditedTable; id: number },
  event: RowAuditEvent,
): Promise<void> {
  await rowsById(trx)
    .deleteFrom(row.table as string)
    .where('id', '=', row.id)
    .execute();
  await recordAudit(trx, actor, { ...event, entityType: AUDITED_ENTITY[row.table], entityId: row.id });
}
