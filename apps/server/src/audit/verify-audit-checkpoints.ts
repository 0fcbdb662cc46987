import fs from 'node:fs';
import readline from 'node:readline';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { auditCheckpointSignatureValid, parseAuditCheckpoint } from './sign-audit-checkpoint.ts';

/**
 * What a checkpoint line can say about the database:
 * - `malformed`: the line is not a checkpoint at all;
 * - `bad_signature`: the HMAC does not match (the line was forged or edited, or another key signed it);
 * - `record_missing`: the anchored record is gone (the tail was removed);
 * - `hash_differs`: the anchored record now has another hash (history before it was rewritten);
 * - `fewer_records`: the table holds fewer records than when the checkpoint was taken.
 */
export type AuditCheckpointProblem =
  | 'malformed'
  | 'bad_signature'
  | 'record_missing'
  | 'hash_differs'
  | 'fewer_records';

export interface AuditCheckpointFinding {
  /** 1-based line number in the checkpoint file. */
  line: number;
  problem: AuditCheckpointProblem;
  auditEventId?: number;
}

export interface AuditCheckpointVerification {
  ok: boolean;
  /** False when the file does not exist yet: nothing could be checked (not in itself a failure). */
  fileFound: boolean;
  /** Checkpoint lines read (blank lines aside). */
  checked: number;
  findings: AuditCheckpointFinding[];
}

/**
 * Checks the database against every checkpoint in the file: each line's signature first, then that
 * the anchored record still exists with the anchored hash and that no records were removed since.
 * Streams the file line by line; it grows by one line per interval.
 */
export async function verifyAuditCheckpoints(
  db: Kysely<Database>,
  source: { key: string; file: string },
): Promise<AuditCheckpointVerification> {
  if (!fs.existsSync(source.file)) return { ok: true, fileFound: false, checked: 0, findings: [] };
  const { count } = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const recordCount = Number(count);

  const findings: AuditCheckpointFinding[] = [];
  let checked = 0;
  let lineNumber = 0;
  const lines = readline.createInterface({
    input: fs.createReadStream(source.file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const text of lines) {
    lineNumber += 1;
    if (text.trim() === '') continue;
    checked += 1;
    const checkpoint = parseAuditCheckpoint(text);
    if (!checkpoint) {
      findings.push({ line: lineNumber, problem: 'malformed' });
      continue;
    }
    const auditEventId = checkpoint.auditEventId;
    // An unsigned claim proves nothing about the database: stop at the signature.
    if (!auditCheckpointSignatureValid(checkpoint, source.key)) {
      findings.push({ line: lineNumber, problem: 'bad_signature', auditEventId });
      continue;
    }
    const record = await db
      .selectFrom('audit_events')
      .select('hash')
      .where('id', '=', auditEventId)
      .executeTakeFirst();
    if (!record) findings.push({ line: lineNumber, problem: 'record_missing', auditEventId });
    else if (record.hash !== checkpoint.hash)
      findings.push({ line: lineNumber, problem: 'hash_differs', auditEventId });
    if (recordCount < checkpoint.recordCount)
      findings.push({ line: lineNumber, problem: 'fewer_records', auditEventId });
  }
  return { ok: findings.length === 0, fileFound: true, checked, findings };
}
