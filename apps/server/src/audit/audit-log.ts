import type { Kysely, Transaction } from 'kysely';
import type { PendingAuditRecord } from '../db/append-audit-records.ts';
import { storedJson, storedNullableText, storedText } from '../db/audit-record.ts';
import { inTransaction, pendingAuditRecordsOf } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { actorRoleIn } from './actor-role.ts';
import type { AuditActor, AuditEventInput } from './audit-events.ts';

/**
 * Records one audit record in the caller's transaction, so the change and its record commit or
 * roll back together. The record is prepared here (every field in its stored form) and appended to
 * the hash chain when the transaction commits (`inTransaction`, db/in-transaction.ts); until then no
 * lock is taken, so writes of different subjects do not queue behind each other.
 *
 * The transaction must have been opened by `inTransaction` (anything else throws). Called with the
 * plain database, it opens one of its own: that is for events that change nothing else, such as a
 * failed login.
 */
export async function recordAudit(
  executor: Kysely<Database> | Transaction<Database>,
  actor: AuditActor,
  event: AuditEventInput,
): Promise<void> {
  if (!executor.isTransaction) {
    await inTransaction(executor, async (trx) => recordAudit(trx, actor, event));
    return;
  }
  // Synchronous from here on: records of one transaction keep the order of the recordAudit calls.
  const record: PendingAuditRecord = {
    event_type: storedText(event.type),
    actor_user_id: actor.userId,
    actor_label: storedText(actor.label),
    actor_role: actorRoleIn(actor.studyRoles, event.studyId, event.siteId),
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
  };
  pendingAuditRecordsOf(executor as Transaction<Database>).push(record);
}
