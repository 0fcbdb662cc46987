import type { Compilable, CompiledQuery, DatabaseConnection, Kysely, Transaction } from 'kysely';
import { appendAuditRecordsStatement, type PendingAuditRecord } from './append-audit-records.ts';
import type { Database } from './schema.ts';

/** What `inTransaction` keeps about a transaction while its work runs. */
interface OpenTransaction {
  /** The audit records recorded so far (`recordAudit`), appended to the chain at commit. */
  auditRecords: PendingAuditRecord[];
  /** The transaction's own connection: statements sent on it directly leave at once (`sendUnanswered`). */
  connection: DatabaseConnection;
  /** The answers of the statements sent without waiting, in the order they were sent. */
  unanswered: Promise<unknown>[];
}

/**
 * The transactions `inTransaction` has open, keyed by the transaction object itself: it exists only
 * while `inTransaction` runs, and a transaction opened any other way has no entry (`openTransactionOf`).
 */
const openTransactions = new WeakMap<Transaction<Database>, OpenTransaction>();

export interface TransactionOptions {
  /** Default: the database's (READ COMMITTED). The checkpoint writer reads in REPEATABLE READ. */
  isolationLevel?: 'read committed' | 'repeatable read' | 'serializable';
  /** 'read only': the database refuses every write in it (`audit verify`). Default: read write. */
  accessMode?: 'read only' | 'read write';
}

/**
 * The one way to open a transaction in this server. Runs `work`, then appends the audit records it
 * recorded (`recordAudit`) to the chain in one statement right before COMMIT, so the global chain
 * lock is held for that statement and the commit only (docs/decisions/audit-append-at-commit.md).
 * If `work` throws, the transaction rolls back and nothing is appended.
 *
 * The append is sent and not waited for (`sendUnanswered`): Kysely sends COMMIT as soon as `work`'s
 * callback returns, and on PostgreSQL a connection sends each statement without waiting for the
 * one before it (pipelined, db/database.ts), so COMMIT reaches the database right behind the append
 * and the lock is released without a round trip through this process, however busy its event loop
 * is. If a statement sent without waiting fails (the append, or one `work` sent so), the database
 * refuses every later statement of the transaction and turns COMMIT into a rollback (it answers
 * "ROLLBACK", not an error): that statement's own error is thrown here, and nothing was written.
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
  if (options.accessMode) builder = builder.setAccessMode(options.accessMode);
  let open: OpenTransaction | undefined;
  let result: T;
  try {
    result = await builder.execute(async (trx) => {
      // The connection Kysely holds for this transaction; no statement is sent to get it.
      const connection = await trx.getExecutor().provideConnection(async (held) => held);
      open = { auditRecords: [], connection, unanswered: [] };
      openTransactions.set(trx, open);
      try {
        const value = await work(trx);
        const append = appendAuditRecordsStatement(open.auditRecords);
        // A transaction that recorded nothing (a read, or a write that audits nothing) appends nothing.
        if (append) sendUnanswered(trx, append);
        return value;
      } finally {
        openTransactions.delete(trx);
      }
    });
  } catch (error) {
    // A statement sent without waiting that failed made the later ones fail with "current
    // transaction is aborted": its own error says what went wrong.
    throw (open && (await firstFailure(open.unanswered))) ?? error;
  }
  // COMMIT was answered after every statement sent before it: all of them have answered by now.
  const failure = open && (await firstFailure(open.unanswered));
  if (failure) throw failure;
  return result;
}

/** The first of these answers that is an error, if any (each is awaited in order). */
async function firstFailure(answers: readonly Promise<unknown>[]): Promise<unknown> {
  for (const answer of answers) {
    try {
      await answer;
    } catch (error) {
      return error;
    }
  }
  return undefined;
}

function openTransactionOf(trx: Transaction<Database>, use: string): OpenTransaction {
  const open = openTransactions.get(trx);
  if (!open) {
    throw new Error(
      `${use} was given a transaction not opened by inTransaction (db/in-transaction.ts), or one that has ended.`,
    );
  }
  return open;
}

/**
 * Sends a statement of the transaction now and does not wait for its answer: it leaves with the
 * statements sent in the same tick of the event loop in one socket write (db/database.ts), and the
 * database runs the transaction's statements in the order they were sent. For a statement whose
 * answer nothing before COMMIT needs — a save's last write, the rows its answer shows — this saves
 * a round trip through the database on the busiest path (issue 12: each costs both processes a
 * wake-up, protocol messages and promise turns). The returned promise gives its rows, or what
 * `read` makes of them; nobody has to await it. `inTransaction` waits for every such statement and
 * throws the first failure, so one that fails fails the whole transaction even if nobody awaits it.
 */
export function sendUnanswered<R, T = R[]>(
  trx: Transaction<Database>,
  statement: CompiledQuery<R> | Compilable<R>,
  read: (rows: R[]) => T = (rows) => rows as T,
): Promise<T> {
  const open = openTransactionOf(trx, 'sendUnanswered');
  const compiled = 'compile' in statement ? statement.compile() : statement;
  // Straight to the connection: Kysely hands a transaction's statements over one at a time, each
  // after the one before has answered, and sends COMMIT directly.
  const rows = open.connection.executeQuery<R>(compiled).then((answer) => answer.rows);
  open.unanswered.push(rows);
  const answer = rows.then(read);
  // Observed by `inTransaction` (the statement) and by whoever awaits the answer, if anyone: until
  // then a failure must not count as unhandled.
  rows.catch(() => {});
  answer.catch(() => {});
  return answer;
}

/**
 * Where `recordAudit` puts a record for the transaction's commit. A transaction not opened by
 * `inTransaction` would commit without its records: that is a programming error, refused loudly.
 */
export function pendingAuditRecordsOf(trx: Transaction<Database>): PendingAuditRecord[] {
  return openTransactionOf(trx, 'recordAudit').auditRecords;
}
