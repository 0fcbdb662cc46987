import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { auditRecordHash, canonicalJson, type HashedFields } from '../db/audit-record.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { systemActor } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';
import { verifyAuditChain } from './verify-audit-chain.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(new Date('2026-01-02T03:04:05.006Z'))).toBe('"2026-01-02T03:04:05.006Z"');
  });
});

describe('auditRecordHash', () => {
  const record: HashedFields = {
    id: 42,
    occurred_at: new Date('2026-11-27T08:40:01.234Z'),
    event_type: 'data.item_changed',
    actor_user_id: 7,
    actor_label: 'Kim "CRC" \\ 김',
    actor_role: null,
    entity_type: 'item',
    entity_id: 'v1.vitalSigns.heartRate',
    study_id: 1,
    site_id: 2,
    subject_id: 3,
    before: { value: 71, note: { b: '😀', a: 'line\nbreak' } },
    after: { value: 72 },
    reason: '원자료 재확인',
    ip: '127.0.0.1',
    request_id: 'req-1',
    previous_hash: 'ab'.repeat(32),
  };
  // The chain's definition, written out: SHA-256 over the canonical JSON of the record's fields in
  // this order, the role last and only when it has a value. The database's append builds the same
  // text from its parts (migration 2026-11-30T1500); this pins the parts to the definition.
  const definition = (fields: HashedFields) =>
    createHash('sha256')
      .update(
        canonicalJson([
          fields.id,
          fields.occurred_at.toISOString(),
          fields.event_type,
          fields.actor_user_id,
          fields.actor_label,
          fields.entity_type,
          fields.entity_id,
          fields.study_id,
          fields.site_id,
          fields.subject_id,
          fields.before ?? null,
          fields.after ?? null,
          fields.reason,
          fields.ip,
          fields.request_id,
          fields.previous_hash,
          ...(fields.actor_role === null ? [] : [fields.actor_role]),
        ]),
      )
      .digest('hex');

  it('hashes the canonical JSON of the fields in their order, the role only when there is one', () => {
    expect(auditRecordHash(record)).toBe(definition(record));
    const withRole = { ...record, actor_role: 'PI,SI', before: null, reason: null };
    expect(auditRecordHash(withRole)).toBe(definition(withRole));
    expect(auditRecordHash(withRole)).not.toBe(auditRecordHash({ ...withRole, actor_role: null }));
  });
});

describeWithDatabase('audit chain', (database) => {
  const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };

  it('links concurrent writers into one unbroken chain', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        recordAudit(database().db, actor, {
          type: 'user.updated',
          entityType: 'user',
          entityId: index,
          before: { name: `before ${index}`, nested: { b: 2, a: 1 } },
          after: { name: `after ${index}` },
        }),
      ),
    );
    const result = await verifyAuditChain(database().db);
    expect(result).toMatchObject({ ok: true, count: 20, breaks: [], head: { id: 20 } });
  });

  it('rolls back with the change it belongs to', async () => {
    await expect(
      inTransaction(database().db, async (trx) => {
        await recordAudit(trx, actor, { type: 'site.created', entityType: 'site', entityId: 1 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, count: 20 });
  });

  it('finds a tampered record', async () => {
    // Someone with superuser rights turns the guard off and edits history.
    await sql`alter table audit_events disable trigger audit_events_append_only`.execute(database().db);
    await sql`update audit_events set after = '{"name":"forged"}' where id = 7`.execute(database().db);
    await sql`alter table audit_events enable trigger audit_events_append_only`.execute(database().db);
    expect(await verifyAuditChain(database().db)).toMatchObject({
      ok: false,
      count: 20,
      breaks: [{ id: 7, problem: 'hash_mismatch' }],
    });
  });
});

describeWithDatabase('audit chain with text the database cannot store as given', (database) => {
  it('stays intact when every field holds lone surrogates and NUL (issue 11)', async () => {
    const odd = '\ud800@x.test\u0000\udfff';
    await recordAudit(database().db, { userId: null, label: odd, ip: odd, requestId: odd }, {
      type: 'login.failed',
      entityType: 'user',
      entityId: odd,
      before: { [odd]: odd, list: [odd, -0, 1e21, 0.12345678901234568, 5e-324], nested: { b: odd, a: 1 } },
      after: { email: odd },
      reason: odd,
    } as never);
    await expect(verifyAuditChain(database().db)).resolves.toMatchObject({ ok: true, breaks: [] });
  });
});
