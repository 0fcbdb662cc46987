import fs from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { type AuditCheckpoint, signAuditCheckpoint } from './sign-audit-checkpoint.ts';

export interface CheckpointTarget {
  /** AUDIT_CHECKPOINT_KEY */
  key: string;
  /** AUDIT_CHECKPOINT_FILE: append-only, one JSON line per checkpoint. */
  file: string;
}

/**
 * Signs the current end of the audit chain and appends it to the checkpoint file. Returns the
 * checkpoint, or null when there is nothing to anchor (no records yet, or the head is still
 * `unlessAt`, the id the caller anchored last time).
 *
 * The line is written with a single write to a file opened for appending, so processes that share
 * the file never interleave inside a line; fsync before returning, so a checkpoint reported as
 * written survives a crash.
 *
 * Then the database counts it (`record_audit_checkpoint`, migration 2026-12-06T1210: how many were
 * written, the last one's HMAC), so `audit verify` fails when the file is missing, emptied or cut
 * short. The file first: a crash in between leaves the file one line ahead of the count, which
 * verify accepts (the line is signed), never behind it, which it reports.
 */
export async function writeAuditCheckpoint(
  db: Kysely<Database>,
  target: CheckpointTarget,
  options: { unlessAt?: number } = {},
): Promise<AuditCheckpoint | null> {
  // The last record as stored (not audit_chain_head: the checkpoint vouches for the table itself),
  // and the count in the same snapshot.
  // Records are appended at their transaction's commit (db/in-transaction.ts), so what this
  // snapshot sees is a whole number of committed transactions, never part of one.
  const head = await inTransaction(
    db,
    async (trx) => {
      const last = await trx
        .selectFrom('audit_events')
        .select(['id', 'hash'])
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!last) return null;
      const { count } = await trx
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return { ...last, count: Number(count) };
    },
    { isolationLevel: 'repeatable read' },
  );
  if (!head || head.id === options.unlessAt) return null;

  const checkpoint = signAuditCheckpoint(
    { auditEventId: head.id, hash: head.hash, recordCount: head.count, createdAt: new Date().toISOString() },
    target.key,
  );
  await fs.mkdir(path.dirname(target.file), { recursive: true });
  const file = await fs.open(target.file, 'a', 0o600);
  try {
    const line = Buffer.from(`${JSON.stringify(checkpoint)}\n`, 'utf8');
    const { bytesWritten } = await file.write(line);
    if (bytesWritten !== line.length) throw new Error(`Short write to ${target.file}: the disk may be full.`);
    await file.sync();
  } finally {
    await file.close();
  }
  await sql`select record_audit_checkpoint(${checkpoint.hmac}, ${checkpoint.auditEventId})`.execute(db);
  return checkpoint;
}
