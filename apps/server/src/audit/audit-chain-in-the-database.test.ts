import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { appendAuditRecordsStatement } from '../db/append-audit-records.ts';
import { auditHashParts, auditRecordHash, type ChainlessFields } from '../db/audit-record.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { systemActor } from './audit-events.ts';
import { recordAudit } from './audit-log.ts';
import { verifyAuditChain } from './verify-audit-chain.ts';

const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };
const SIX_MONTHS_MS = 183 * 24 * 3600 * 1000;

const content: ChainlessFields = {
  event_type: 'user.updated',
  actor_user_id: 1,
  actor_label: 'Someone Else',
  actor_role: null,
  entity_type: 'user',
  entity_id: '1',
  study_id: null,
  site_id: null,
  subject_id: null,
  before: null,
  after: { name: 'back-dated' },
  reason: null,
  ip: '10.0.0.1',
  request_id: 'forged',
};

/**
 * Issue 43 item 2 (a): the database, not its caller, gives every audit record its id, time,
 * previous hash and hash (trigger `audit_events_chain`, migration 2026-12-06T1200). On PGlite too:
 * its one role can switch the trigger off, but the trigger runs for every insert unless it does.
 */
describeWithDatabase('the audit chain, owned by the database', (database) => {
  it('refuses a back-dated record that brings its own id, time and hashes (the forgery of issue 43)', async () => {
    const db = database().db;
    await recordAudit(db, actor, { type: 'site.updated', entityType: 'site', entityId: 1 });
    const head = await db.selectFrom('audit_chain_head').selectAll().executeTakeFirstOrThrow();
    const forged = {
      ...content,
      id: head.last_id + 1,
      occurred_at: new Date(Date.now() - SIX_MONTHS_MS),
      previous_hash: head.last_hash,
    };
    const hash = auditRecordHash(forged);
    const parts = auditHashParts(content);
    // Even with the hashed text the trigger asks for, and an id, a time and hashes that fit.
    await expect(
      inTransaction(db, async (trx) => {
        await sql`select set_config('cdms.audit_hashed_fields', ${parts.fields}, true)`.execute(trx);
        await trx
          .insertInto('audit_events')
          .values({ ...forged, hash })
          .execute();
      }),
    ).rejects.toThrow(/get their id, time and hashes from the database/);
    // Without an id but with a chosen time: refused the same way.
    await expect(
      sql`insert into audit_events (occurred_at, event_type, actor_label, entity_type)
          values (now() - interval '6 months', 'x', 'x', 'x')`.execute(db),
    ).rejects.toThrow(/get their id, time and hashes from the database/);
    // Content alone, but not through append_audit_records (no hashed text): refused too.
    await expect(
      sql`insert into audit_events (event_type, actor_label, entity_type) values ('x', 'x', 'x')`.execute(db),
    ).rejects.toThrow(/append_audit_records/);
    // The same through the append function: an element with a time of its own is refused.
    const statement = appendAuditRecordsStatement([content]);
    if (!statement) throw new Error('no statement');
    const [records] = statement.parameters as [string];
    const withTime = JSON.stringify(
      (JSON.parse(records) as object[]).map((record) => ({ ...record, occurred_at: '2026-06-01T00:00:00Z' })),
    );
    await expect(sql`select append_audit_records(${withTime}::jsonb)`.execute(db)).rejects.toThrow(
      /get their id, time and hashes from the database/,
    );
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 1 });
  });

  it('gives the content the next place and the time of appending, one time per transaction', async () => {
    const db = database().db;
    const before = Date.now();
    await inTransaction(db, async (trx) => {
      await recordAudit(trx, actor, { type: 'site.updated', entityType: 'site', entityId: 2 });
      await recordAudit(trx, actor, { type: 'site.updated', entityType: 'site', entityId: 3 });
    });
    await recordAudit(db, actor, { type: 'site.updated', entityType: 'site', entityId: 4 });
    const rows = await db
      .selectFrom('audit_events')
      .select(['id', 'occurred_at', 'entity_id'])
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.id, row.entity_id])).toEqual([
      [1, '1'],
      [2, '2'],
      [3, '3'],
      [4, '4'],
    ]);
    const [, second, third, fourth] = rows.map((row) => row.occurred_at.getTime());
    expect(second).toBe(third);
    expect(fourth).toBeGreaterThanOrEqual(third ?? 0);
    // The database's clock (the same machine here): not a time anyone chose.
    expect(Math.abs((second ?? 0) - before)).toBeLessThan(60_000);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 4 });
  });
});
