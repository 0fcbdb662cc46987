import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { systemActor } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';
import { verifyAuditChain } from './verify-audit-chain.ts';

describeWithDatabase('verifyAuditChain', (database) => {
  const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };

  it('says an empty trail is intact', async () => {
    expect(await verifyAuditChain(database().db)).toEqual({ ok: true, count: 0, head: null, breaks: [] });
  });

  it('lists every broken record, not only the first', async () => {
    for (let index = 1; index <= 12; index += 1) {
      await recordAudit(database().db, actor, { type: 'site.updated', entityType: 'site', entityId: index });
    }
    const db = database().db;
    // As the table's owner: turn the guard off, damage history in three places, turn it on again.
    await sql`alter table audit_events disable trigger audit_events_append_only`.execute(db);
    await sql`update audit_events set reason = 'edited' where id = 3`.execute(db);
    await sql`update audit_events set previous_hash = ${'f'.repeat(64)} where id = 6`.execute(db);
    await sql`delete from audit_events where id in (9, 10)`.execute(db);
    await sql`alter table audit_events enable trigger audit_events_append_only`.execute(db);

    const result = await verifyAuditChain(db);
    expect(result.ok).toBe(false);
    expect(result.count).toBe(10);
    expect(result.head).toEqual({ id: 12, hash: expect.any(String) });
    expect(result.breaks).toEqual([
      { id: 3, problem: 'hash_mismatch' },
      // previous_hash is part of the hashed fields: editing it breaks both.
      { id: 6, problem: 'link_mismatch' },
      { id: 6, problem: 'hash_mismatch' },
      { id: 11, problem: 'gap', missingFrom: 9 },
      { id: 11, problem: 'link_mismatch' },
    ]);
  });

  it('reports a removed tail through the chain head', async () => {
    const db = database().db;
    await sql`alter table audit_events disable trigger audit_events_append_only`.execute(db);
    await sql`delete from audit_events where id = 12`.execute(db);
    await sql`alter table audit_events enable trigger audit_events_append_only`.execute(db);
    const result = await verifyAuditChain(db);
    expect(result.breaks.at(-1)).toEqual({ id: 12, problem: 'head_mismatch' });
    expect(result.head?.id).toBe(11);
  });
});
