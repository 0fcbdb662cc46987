import type { Kysely, Transaction } from 'kysely';
import { appendAuditRecords, type PendingAuditRecord } from '../audit/append-audit-records.ts';
import type { Database } from './schema.ts';

/**
 * The audit records each open transaction has recorded so far, appended to the chain at its commit.
 * Keyed by the transaction object itself: it exists only while `inTransaction` runs, and a
 * transaction opened any other way has no entry (see `pendingAuditRecordsOf`).
 */
const pendingAuditRecords = new WeakMap<Transaction<Database>, PendingAuditRecord[]>();

export interface TransactionOptions {
  /** Default: the database's (READ COMMITTED). The checkpoint writer reads in REPEATABLE READ. */
  isolationLevel?: 'read committed' | 'repeatable read' | 'serializable';
}

/**
 * The one way to open a transaction in this server. Runs `work`, then appends the audit records it
 * recorded (`recordAudit`) to the chain in one step right before COMMIT, so the global chain lock is
 * held for that step only (docs/decisions/audit-append-at-commit.md). If `work` throws, the
 * transaction rolls back and nothing is appended.
 *
 * Inside `work`, the transaction's own audit records are not in `audit_events` yet: they appear
 * when it commits, together with everything else it wrote.
 */
export async function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  let builder = db.transaction();
  if (options.isolationLevel) builder = builder.setIsolationLevel(options.isolationLevel);
  return builder.execute(async (trx) => {
    const pending: PendingAuditRecord[] = [];
    pendingAuditRecords.set(trx, pending);
    try {
      const result = await work(trx);
      await appendAuditRecords(trx, pending);
      return result;
    } finally {
      pendingAuditRecords.delete(trx);
    }
  });
}

/**
 * Where `recordAudit` puts a record for the transaction's commit. A transaction not opened by
 * `inTransaction` would commit without its records: that is a programming error, refused loudly.
 */
export function pendingAuditRecordsOf(trx: Transaction<Database>): PendingAuditRecord[] {
  const pending = pendingAuditRecords.get(trx);
  if (!pending) {
    throw new Error(
      'recordAudit was given a transaction not opened by inTransaction (db/in-transaction.ts), or one that has ended: its records would never be appended.',
    );
  }
  return pending;
}
