import type { Kysely } from 'kysely';
import { auditRecordHash, GENESIS_HASH } from '../db/audit-record.ts';
import type { Database } from '../db/schema.ts';

/**
 * What can be wrong with one record of the chain:
 * - `hash_mismatch`: the stored hash is not the hash of the record's fields (the record was edited);
 * - `link_mismatch`: its previous_hash is not the stored hash of the record before it;
 * - `gap`: records are missing before this id (`missingFrom`..id-1), or at the end (head_mismatch);
 * - `head_mismatch`: audit_chain_head does not point at the last record.
 */
export type AuditChainProblem = 'hash_mismatch' | 'link_mismatch' | 'gap' | 'head_mismatch';

export interface AuditChainBreak {
  id: number;
  problem: AuditChainProblem;
  /** For a gap: the first missing id (the gap runs up to `id - 1`). */
  missingFrom?: number;
}

export interface AuditChainVerification {
  ok: boolean;
  /** Records read and checked. */
  count: number;
  /** The last record of the table, null when it is empty. */
  head: { id: number; hash: string } | null;
  /** Every record that does not fit, in id order; empty when ok. */
  breaks: AuditChainBreak[];
}

const BATCH_SIZE = 1000;

/**
 * Walks the whole chain in id order, a batch at a time (the table can be large), and lists every
 * record that does not fit rather than stopping at the first: an inspector wants the extent of the
 * damage. Each record is compared with the one stored before it, so one edited record is reported
 * once (its own hash), not together with every record after it.
 *
 * The chain alone cannot catch someone who rewrites a record and recomputes every later hash with
 * this same function; the signed checkpoints outside the database do (verify-audit-checkpoints.ts).
 */
export async function verifyAuditChain(db: Kysely<Database>): Promise<AuditChainVerification> {
  const breaks: AuditChainBreak[] = [];
  let previousHash = GENESIS_HASH;
  let lastId = 0;
  let count = 0;
  for (;;) {
    const rows = await db
      .selectFrom('audit_events')
      .selectAll()
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(BATCH_SIZE)
      .execute();
    for (const row of rows) {
      if (row.id !== lastId + 1) breaks.push({ id: row.id, problem: 'gap', missingFrom: lastId + 1 });
      if (row.previous_hash !== previousHash) breaks.push({ id: row.id, problem: 'link_mismatch' });
      if (auditRecordHash(row) !== row.hash) breaks.push({ id: row.id, problem: 'hash_mismatch' });
      previousHash = row.hash;
      lastId = row.id;
      count += 1;
    }
    if (rows.length < BATCH_SIZE) break;
  }
  const head = await db
    .selectFrom('audit_chain_head')
    .select(['last_id', 'last_hash'])
    .executeTakeFirstOrThrow();
  if (head.last_id !== lastId || head.last_hash !== previousHash) {
    // The head points past the last record (the tail was removed) or at another hash.
    breaks.push({ id: head.last_id, problem: 'head_mismatch' });
  }
  return {
    ok: breaks.length === 0,
    count,
    head: count === 0 ? null : { id: lastId, hash: previousHash },
    breaks,
  };
}
