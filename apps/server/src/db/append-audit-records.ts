import { CompiledQuery } from 'kysely';
import { auditHashParts, type ChainlessFields } from './audit-record.ts';

/**
 * An audit record as `recordAudit` prepares it during a transaction: every field in its stored
 * form, but not yet its place in the chain (id, time, previous hash), which it gets at commit.
 */
export type PendingAuditRecord = ChainlessFields;

/**
 * The statement that appends a transaction's audit records to the chain (none: null): the one step
 * of a write that is serialised across the whole system. `inTransaction` sends it last, with COMMIT
 * right behind it, so the head row's lock is held only for this statement and the commit — not
 * while the transaction does its work, and not while this server's event loop gets round to a reply.
 *
 * One statement, `append_audit_records` (an owner's SECURITY DEFINER function, migrations
 * 2026-11-30T1500 and 2026-12-06T1200): it inserts each record's content, and the table's trigger
 * gives it, under the head's lock, the next id, the time of appending, the previous record's hash
 * and its hash over the text `auditHashText` describes, whose record-dependent part
 * (`auditHashParts`) is prepared here, outside the lock. Nothing sent here can set an id, a time or
 * a hash: the trigger refuses a record that brings one. The records keep the order they were recorded in, and all of them share
 * one `occurred_at`, the database's clock after the lock is held: so times never go backwards along
 * the chain, whichever server process appends. The checkpoints and `verifyAuditChain` depend on
 * ids and hashes only.
 */
export function appendAuditRecordsStatement(
  pending: readonly PendingAuditRecord[],
): CompiledQuery<unknown> | null {
  if (pending.length === 0) return null;
  const records = pending.map((fields) => {
    const parts = auditHashParts(fields);
    return { ...fields, hashed_fields: parts.fields, hashed_role: parts.role };
  });
  return CompiledQuery.raw('select append_audit_records($1::jsonb)', [JSON.stringify(records)]);
}
