import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AuditEventRow, Database } from '../db/schema.ts';
import type { AuditActor, AuditEventInput } from './audit-events.ts';

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

type HashedFields = Omit<AuditEventRow, 'hash'>;

/**
 * A string as PostgreSQL text/jsonb will store it, decided before hashing so the hash covers the
 * stored bytes: lone UTF-16 surrogates become U+FFFD (what the database would do silently) and NUL,
 * which text and jsonb cannot hold at all, becomes U+FFFD too.
 */
export function storedText(value: string): string {
  return (value as string & { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\uFFFD');
}

function storedNullableText(value: string | null): string | null {
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

/** The hash of a record: SHA-256 over its fields, including the previous record's hash. */
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
  ];
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

/**
 * Appends one record to the audit trail inside the caller's transaction, so the change and its
 * record commit or roll back together. Called with the plain database (no transaction), it opens
 * one of its own: that is for events that change nothing else, such as a failed login.
 */
export async function recordAudit(
  executor: Kysely<Database> | Transaction<Database>,
  actor: AuditActor,
  event: AuditEventInput,
): Promise<void> {
  if (!executor.isTransaction) {
    await executor.transaction().execute((trx) => recordAudit(trx, actor, event));
    return;
  }
  // Locking the chain head makes concurrent writers take turns: each record links to the one
  // committed just before it.
  const head = await executor
    .selectFrom('audit_chain_head')
    .select(['last_id', 'last_hash'])
    .forUpdate()
    .executeTakeFirstOrThrow();
  const record: HashedFields = {
    id: head.last_id + 1,
    occurred_at: new Date(),
    event_type: storedText(event.type),
    actor_user_id: actor.userId,
    actor_label: storedText(actor.label),
    entity_type: storedText(event.entityType),
    entity_id:
      event.entityId === undefined || event.entityId === null ? null : storedText(String(event.entityId)),
    study_id: event.studyId ?? null,
    site_id: event.siteId ?? null,
    subject_id: event.subjectId ?? null,
    before: storedJson(event.before),
    after: storedJson(event.after),
    reason: storedNullableText(event.reason ?? null),
    ip: storedText(actor.ip),
    request_id: storedText(actor.requestId),
    previous_hash: head.last_hash,
  };
  const hash = auditRecordHash(record);
  await executor
    .insertInto('audit_events')
    .values({
      ...record,
      before: record.before === null ? null : JSON.stringify(record.before),
      after: record.after === null ? null : JSON.stringify(record.after),
      hash,
    })
    .execute();
  await executor.updateTable('audit_chain_head').set({ last_id: record.id, last_hash: hash }).execute();
}
