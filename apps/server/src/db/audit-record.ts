import { createHash } from 'node:crypto';
import type { AuditEventRow } from './schema.ts';

/**
 * What an audit record is made of, without any database: the stored form of its text and JSON,
 * and its hash. `recordAudit` (audit-log.ts) prepares records, `appendAuditRecordsStatement`
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

/** A record's fields known before it has a place in the chain: all but its id, time and previous hash. */
export type ChainlessFields = Omit<HashedFields, 'id' | 'occurred_at' | 'previous_hash'>;

/**
 * The hashed text of a record without its place in the chain. A record's hash is SHA-256 over the
 * canonical JSON of the list [id, occurred_at (ISO), event_type, actor_user_id, actor_label,
 * entity_type, entity_id, study_id, site_id, subject_id, before, after, reason, ip, request_id,
 * previous_hash, actor_role] — the actor's role came later and is listed only when it has a value,
 * so records written before it keep the hash they were chained with. That text is
 * `[<id>,"<occurred_at>",<fields>,"<previous_hash>"<role>]`: `fields` and `role` are known when the
 * record is recorded, the rest only under the chain's lock, where the database puts them in
 * (`append_audit_records`, migration 2026-11-30T1500; `auditHashText` is the same in JavaScript).
 */
export interface AuditHashParts {
  /** event_type … request_id, each as canonical JSON, comma-separated. */
  fields: string;
  /** `,"<actor_role>"`, or '' for a record without one. */
  role: string;
}

export function auditHashParts(record: ChainlessFields): AuditHashParts {
  const fields = [
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
  ];
  const hasRole = record.actor_role !== null && record.actor_role !== undefined;
  return {
    fields: fields.map(canonicalJson).join(','),
    role: hasRole ? `,${canonicalJson(record.actor_role)}` : '',
  };
}

/** The text a record's hash is taken over, from its parts and its place in the chain. */
export function auditHashText(
  parts: AuditHashParts,
  place: { id: number; occurredAt: string; previousHash: string },
): string {
  return `[${place.id},${JSON.stringify(place.occurredAt)},${parts.fields},${JSON.stringify(place.previousHash)}${parts.role}]`;
}

/** The hash of a stored record: SHA-256 over its fields, including the previous record's hash. */
export function auditRecordHash(record: HashedFields): string {
  const text = auditHashText(auditHashParts(record), {
    id: record.id,
    occurredAt: record.occurred_at.toISOString(),
    previousHash: record.previous_hash,
  });
  return createHash('sha256').update(text).digest('hex');
}
