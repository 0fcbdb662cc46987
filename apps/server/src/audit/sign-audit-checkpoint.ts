import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A checkpoint anchors the audit chain outside the database: "record `auditEventId` had the hash
 * `hash`, and the table held `recordCount` records, at `createdAt`", signed with HMAC-SHA256 under a
 * key that only the configuration holds (AUDIT_CHECKPOINT_KEY, never stored in the database).
 * Someone with the database credentials alone can rewrite records and recompute every later hash,
 * but cannot sign a checkpoint for the rewritten chain, so `audit verify` notices.
 */
export interface AuditCheckpointFields {
  auditEventId: number;
  hash: string;
  recordCount: number;
  createdAt: string;
}

export interface AuditCheckpoint extends AuditCheckpointFields {
  version: 1;
  hmac: string;
}

/** What the HMAC covers: every field, one per line, with a label so a v1 MAC can't pass for another format. */
function signedText(fields: AuditCheckpointFields): string {
  return [
    'cdms-audit-checkpoint-v1',
    String(fields.auditEventId),
    fields.hash,
    String(fields.recordCount),
    fields.createdAt,
  ].join('\n');
}

function hmacOf(fields: AuditCheckpointFields, key: string): string {
  return createHmac('sha256', key).update(signedText(fields)).digest('hex');
}

export function signAuditCheckpoint(fields: AuditCheckpointFields, key: string): AuditCheckpoint {
  return { version: 1, ...fields, hmac: hmacOf(fields, key) };
}

/** True when the checkpoint's HMAC is the one `key` gives its fields (compared in constant time). */
export function auditCheckpointSignatureValid(checkpoint: AuditCheckpoint, key: string): boolean {
  const expected = Buffer.from(hmacOf(checkpoint, key), 'hex');
  const given = Buffer.from(checkpoint.hmac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One line of the checkpoint file, or null when it is not a well-formed v1 checkpoint. */
export function parseAuditCheckpoint(line: string): AuditCheckpoint | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const wellFormed =
    record.version === 1 &&
    Number.isSafeInteger(record.auditEventId) &&
    typeof record.hash === 'string' &&
    Number.isSafeInteger(record.recordCount) &&
    typeof record.createdAt === 'string' &&
    typeof record.hmac === 'string' &&
    /^[0-9a-f]{64}$/.test(record.hmac);
  if (!wellFormed) return null;
  return {
    version: 1,
    auditEventId: record.auditEventId as number,
    hash: record.hash as string,
    recordCount: record.recordCount as number,
    createdAt: record.createdAt as string,
    hmac: record.hmac as string,
  };
}
