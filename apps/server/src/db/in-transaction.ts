import type { Kysely, Transaction } from 'kysely';
import { appendAuditRecords, type PendingAuditRecord } from '../audit/append-audit-records.ts';
import { statementsSentToPostgres } from './database.ts';
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
 * recorded (`recordAudit`) to the chain in one statement right before COMMIT, so the global chain
 * lock is held for that statement and the commit only (docs/decisions/audit-append-at-commit.md).
 * If `work` throws, the transaction rolls back and nothing is appended.
 *
 * The append is sent and not waited for: Kysely sends COMMIT as soon as `work`'s callback returns,
 * and on PostgreSQL a connection sends each statement without waiting for the one before it
 * (pipelined, db/database.ts), so COMMIT reaches the database right behind the append and the lock
 * is released without a round trip through this process, however busy its event loop is. If the
 * append fails, the database turns that COMMIT into a rollback (it answers "ROLLBACK", not an
 * error), and the append's own error is thrown here: nothing was written.
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
  let appended: Promise<void> = Promise.resolve();
  const result = await builder.execute(async (trx) => {
    const pending: PendingAuditRecord[] = [];
    pendingAuditRecords.set(trx, pending);
    try {
      const value = await work(trx);
      const sentBefore = statementsSentToPostgres();
      appended = appendAuditRecords(trx, pending);
      // Awaited below, after COMMIT; until then a failure must not count as unhandled.
      appended.catch(() => {});
      // COMMIT may follow unanswered only if the append has reached the connection. Kysely hands a
      // transaction's statements to it one at a time, and sends COMMIT to it directly: a statement
      // `work` left running would hold the append back while COMMIT went first, committing the
      // change without its records. So unless the append went out at once, it is waited for here
      // (always on PGlite, whose statements take turns in one connection anyway).
      if (pending.length > 0 && statementsSentToPostgres() === sentBefore) await appended;
      return value;
    } finally {
      pendingAuditRecords.delete(trx);
    }
  });
  await appended;
  return result;
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
