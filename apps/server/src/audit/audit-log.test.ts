import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { systemActor } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';
import { canonicalJson } from './audit-record.ts';
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
