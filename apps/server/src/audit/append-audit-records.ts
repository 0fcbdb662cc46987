import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { auditRecordHash, type HashedFields } from './audit-record.ts';

/**
 * An audit record as `recordAudit` prepares it during a transaction: every field in its stored
 * form, but not yet its place in the chain (id, time, previous hash), which it gets at commit.
 */
export type PendingAuditRecord = Omit<HashedFields, 'id' | 'occurred_at' | 'previous_hash'>;

/**
 * Rows per INSERT statement: 17 columns each stays far below PostgreSQL's 65,535 parameters.
 * A transaction with more records (a large import) takes several statements, still under one lock.
 */
const ROWS_PER_INSERT = 1000;

/**
 * Appends a transaction's audit records to the chain: the one step of a write that is serialised
 * across the whole system. `inTransaction` calls it last, right before COMMIT, so the head row's
 * lock is held only for this step and the commit itself — not while the transaction does its work.
 *
 * Under the lock: consecutive ids after the head, each record's hash over its fields and the hash
 * before it, the records in the order they were recorded, inserted together, and the head moved.
 *
 * `occurred_at` is the time of appending, one time for all records of the transaction, taken after
 * the lock is held: so on one server's clock times never go backwards along the chain (ids and times
 * agree, as before this change), and the time is the moment the change became part of the record, a few milliseconds
 * before it commits. The checkpoints and `verifyAuditChain` depend on ids and hashes only.
 */
export async function appendAuditRecords(
  trx: Transaction<Database>,
  pending: readonly PendingAuditRecord[],
): Promise<void> {
  // A transaction that recorded nothing (a read, or a write that audits nothing) never waits here.
  if (pending.length === 0) return;
  const head = await trx
    .selectFrom('audit_chain_head')
    .select(['last_id', 'last_hash'])
    .forUpdate()
    .executeTakeFirstOrThrow();
  const occurredAt = new Date();
  let previousHash = head.last_hash;
  const rows = pending.map((fields, index) => {
    const record: HashedFields = {
      ...fields,
      id: head.last_id + 1 + index,
      occurred_at: occurredAt,
      previous_hash: previousHash,
    };
    const hash = auditRecordHash(record);
    previousHash = hash;
    return {
      ...record,
      before: record.before === null ? null : JSON.stringify(record.before),
      after: record.after === null ? null : JSON.stringify(record.after),
      hash,
    };
  });
  // Every statement here is a round trip made while every other writer waits for the lock, so the
  // last (usually the only) batch of rows and the head's move go in one statement.
  const lastBatchStart = Math.floor((rows.length - 1) / ROWS_PER_INSERT) * ROWS_PER_INSERT;
  for (let start = 0; start < lastBatchStart; start += ROWS_PER_INSERT) {
    await trx
      .insertInto('audit_events')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .execute();
  }
  await trx
    .with('appended', (db) =>
      db.insertInto('audit_events').values(rows.slice(lastBatchStart)).returning('id'),
    )
    .updateTable('audit_chain_head')
    .set({ last_id: head.last_id + rows.length, last_hash: previousHash })
    .execute();
}
