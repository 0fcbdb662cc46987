import { createHash } from 'node:crypto';
import type { AuditEventRow } from '../db/schema.ts';

/**
 * What an audit record is made of, without any database: the stored form of its text and JSON,
 * and its hash. `recordAudit` (audit-log.ts) prepares records, `appendAuditRecords`
 * (append-audit-records.ts) chains them at commit, `verifyAuditChain` checks them.
 */

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every depth: jsonb does not keep key order, the hash must. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, child]) => child !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(',')}}`;
}

/** Every field of a stored record but its own hash (which is computed over these). */
export type HashedFields = Omit<AuditEventRow, 'hash'>;

/**
 * A string as PostgreSQL text/jsonb will store it, decided before hashing so the hash covers the
 * stored bytes: lone UTF-16 surrogates become U+FFFD (what the database would do silently) and NUL,
 * which text and jsonb cannot hold at all, becomes U+FFFD too.
 */
export function storedText(value: string): string {
  return (value as string & { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\uFFFD');
}

export function storedNullableText(value: string | null): string | null {
  return value === null ? null : storedText(value);
}

/**
 * A before/after value as jsonb will give it back: JSON.stringify first (dates, toJSON, -0, undefined
 * are settled there; JS numbers come back from jsonb as the same doubles), then every key and string
 * value in its stored form.
 */
export function storedJson(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return normaliseJsonStrings(JSON.parse(JSON.stringify(value)));
}

function normaliseJsonStrings(value: unknown): unknown {
  if (typeof value === 'string') return storedText(value);
  if (Array.isArray(value)) return value.map(normaliseJsonStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [storedText(key), normaliseJsonStrings(child)]),
    );
  }
  return value;
}

/**
 * The hash of a record: SHA-256 over its fields, including the previous record's hash. The actor's
 * role came later: it is hashed (last) when it has a value, so records written before it keep the
 * hash they were chained with.
 */
export function auditRecordHash(record: HashedFields): string {
  const fields = [
    record.id,
    record.occurred_at.toISOString(),
    record.event_type,
    record.actor_user_id,
    record.actor_label,
    record.entity_type,
    record.entity_id,
    record.study_id,
    record.site_id,
    record.subject_id,
    record.before ?? null,
    record.after ?? null,
    record.reason,
    record.ip,
    record.request_id,
    record.previous_hash,
    ...(record.actor_role === null || record.actor_role === undefined ? [] : [record.actor_role]),
  ];
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}
