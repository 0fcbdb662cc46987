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

/**
 * The database counted more checkpoints than the file holds (`record_audit_checkpoint`, migration
 * 2026-12-06T1210): the file was deleted, emptied, cut short or swapped for an older copy — what
 * someone who rewrote the chain would do to the checkpoints that give them away.
 */
export interface MissingAuditCheckpoints {
  /** Checkpoints the database counted as written. */
  recorded: number;
  /** Well-signed checkpoints in the file up to the last one the database recorded, or in all if it is absent. */
  inFile: number;
  /** Whether the last checkpoint the database recorded (by its HMAC) is in the file. */
  lastFound: boolean;
  /** The record that last checkpoint anchored. */
  lastAuditEventId: number | null;
}

export interface AuditCheckpointVerification {
  ok: boolean;
  /** False when the file does not exist: a failure only when the database recorded checkpoints. */
  fileFound: boolean;
  /** Checkpoint lines read (blank lines aside). */
  checked: number;
  findings: AuditCheckpointFinding[];
  /** Set when the file holds fewer checkpoints than the database counted; then not ok. */
  missing: MissingAuditCheckpoints | null;
}

/**
 * Checks the database against every checkpoint in the file: each line's signature first, then that
 * the anchored record still exists with the anchored hash and that no records were removed since.
 * Then the file against the database: it must hold the last checkpoint the database counted, with
 * at least as many checkpoints up to it as were counted. Lines after it are accepted (signed; a
 * crash between the file's write and the count leaves one), and so are lines before the count
 * began (files older than the migration). Streams the file line by line; it grows by one line per
 * interval.
 */
export async function verifyAuditCheckpoints(
  db: Kysely<Database>,
  source: { key: string; file: string },
): Promise<AuditCheckpointVerification> {
  const counted = await db
    .selectFrom('audit_checkpoint_head')
    .select(['written', 'last_hmac', 'last_audit_event_id'])
    .executeTakeFirstOrThrow();
  const recorded = Number(counted.written);
  const missingFrom = (inFile: number, lastFound: boolean): MissingAuditCheckpoints | null =>
    recorded > 0 && (!lastFound || inFile < recorded)
      ? { recorded, inFile, lastFound, lastAuditEventId: counted.last_audit_event_id }
      : null;
  if (!fs.existsSync(source.file)) {
    const missing = missingFrom(0, false);
    return { ok: missing === null, fileFound: false, checked: 0, findings: [], missing };
  }
  const { count } = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const recordCount = Number(count);

  const findings: AuditCheckpointFinding[] = [];
  let checked = 0;
  let lineNumber = 0;
  /** Well-signed checkpoints read so far, and how many of them up to the last one counted. */
  let signed = 0;
  let signedUpToLastCounted: number | undefined;
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
    signed += 1;
    if (checkpoint.hmac === counted.last_hmac) signedUpToLastCounted = signed;
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
  const missing = missingFrom(signedUpToLastCounted ?? signed, signedUpToLastCounted !== undefined);
  return { ok: findings.length === 0 && missing === null, fileFound: true, checked, findings, missing };
}
