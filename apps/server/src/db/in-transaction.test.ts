import { expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { type AuditEventInput, systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { inTransaction } from './in-transaction.ts';

describeWithDatabase('inTransaction', (database) => {
  const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };
  const event = (entityId: number): AuditEventInput => ({
    type: 'site.updated',
    entityType: 'site',
    entityId,
  });
  const storedCount = async () =>
    Number(
      (
        await database()
          .db.selectFrom('audit_events')
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('appends the records at commit, in the order they were recorded, with consecutive ids', async () => {
    const seenInside = await inTransaction(database().db, async (trx) => {
      for (const entityId of [3, 1, 2]) await recordAudit(trx, actor, event(entityId));
      // Not in the table yet: they are appended in the last step before COMMIT.
      return Number(
        (
          await trx
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    });
    expect(seenInside).toBe(0);
    const rows = await database()
      .db.selectFrom('audit_events')
      .select(['id', 'entity_id', 'occurred_at'])
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.id, row.entity_id])).toEqual([
      [1, '3'],
      [2, '1'],
      [3, '2'],
    ]);
    // One time for the whole transaction: the time it was appended.
    expect(new Set(rows.map((row) => row.occurred_at.getTime())).size).toBe(1);
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, count: 3, head: { id: 3 } });
  });

  it('appends nothing when the work throws', async () => {
    await expect(
      inTransaction(database().db, async (trx) => {
        await recordAudit(trx, actor, event(9));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await storedCount()).toBe(3);
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, count: 3 });
  });

  it('refuses recordAudit in a transaction it did not open, and after its own has ended', async () => {
    await expect(
      database()
        .db.transaction()
        .execute((trx) => recordAudit(trx, actor, event(10))),
    ).rejects.toThrow(/not opened by inTransaction/);
    const leaked = await inTransaction(database().db, async (trx) => trx);
    await expect(recordAudit(leaked, actor, event(11))).rejects.toThrow(/not opened by inTransaction/);
    expect(await storedCount()).toBe(3);
  });

  it('appends a transaction of more records than one INSERT takes', async () => {
    await inTransaction(database().db, async (trx) => {
      for (let entityId = 0; entityId < 2500; entityId++) await recordAudit(trx, actor, event(entityId));
    });
    expect(await verifyAuditChain(database().db)).toMatchObject({
      ok: true,
      count: 2503,
      head: { id: 2503 },
    });
  });

  it('lets a transaction that audits commit while another that has audited is still open (PostgreSQL)', async () => {
    // PGlite has one connection: its transactions take turns from BEGIN to COMMIT by design.
    if (database().kind !== 'postgres') return;
    let letFirstFinish!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => {
      letFirstFinish = resolve;
    });
    let firstRecorded!: () => void;
    const firstHasRecorded = new Promise<void>((resolve) => {
      firstRecorded = resolve;
    });
    const first = inTransaction(database().db, async (trx) => {
      await recordAudit(trx, actor, event(1001));
      firstRecorded();
      await firstMayFinish;
      await recordAudit(trx, actor, event(1002));
    });
    await firstHasRecorded;
    // Before records were appended at commit, this waited for `first` to end: it held the chain head.
    await inTransaction(database().db, async (trx) => {
      await recordAudit(trx, actor, event(2001));
    });
    letFirstFinish();
    await first;
    const lastThree = await database()
      .db.selectFrom('audit_events')
      .select('entity_id')
      .orderBy('id', 'desc')
      .limit(3)
      .execute();
    expect(lastThree.map((row) => row.entity_id).reverse()).toEqual(['2001', '1001', '1002']);
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, count: 2506, breaks: [] });
  });

  it('keeps one unbroken chain under many concurrent writers', async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        inTransaction(database().db, async (trx) => {
          await recordAudit(trx, actor, event(3000 + index));
          await recordAudit(trx, actor, event(4000 + index));
        }),
      ),
    );
    const expected = database().kind === 'postgres' ? 2566 : 2563;
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, count: expected, breaks: [] });
  });
});
