import { sql, type Transaction } from 'kysely';
import { expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { type AuditEventInput, systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { auditRecordHash } from './audit-record.ts';
import { inTransaction, pendingAuditRecordsOf, sendUnanswered } from './in-transaction.ts';
import type { Database } from './schema.ts';

describeWithDatabase('inTransaction', (database) => {
  const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };
  const event = (entityId: number): AuditEventInput => ({
    type: 'site.updated',
    entityType: 'site',
    entityId,
  });
  // A change of a plain table, to see whether a transaction's writes stayed or went.
  const insertLoginFailure = (trx: Transaction<Database>, email: string) =>
    trx
      .insertInto('login_failures')
      .values({ email, client_ip: '', failure_count: 1, first_failure_at: new Date() })
      .execute();
  const loginFailuresOf = (email: string) =>
    database().db.selectFrom('login_failures').select('email').where('email', '=', email).execute();
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

  it('chains in the database exactly what the verifier hashes, whatever the text and values', async () => {
    const before = await storedCount();
    const studyActor = {
      ...actor,
      studyRoles: new Map([[1, { roles: new Map([['DM' as const, 'all' as const]]) }]]),
    };
    await inTransaction(database().db, async (trx) => {
      await recordAudit(trx, actor, {
        type: 'data.item_changed',
        entityType: 'item',
        entityId: 'v1.vitalSigns.note',
        subjectId: 5,
        before: { value: 'quote " backslash \\ newline \n tab \t bell \u0007', n: 1.5, big: 1e21 },
        after: { value: '김 😀 \u2028', list: [3, { z: null, a: false }], empty: {} },
        reason: '원자료 "재확인" \\ 끝',
      });
      await recordAudit(trx, studyActor, {
        type: 'site.updated',
        entityType: 'site',
        entityId: 1,
        studyId: 1,
        after: { name: 'x' },
      });
    });
    const rows = await database()
      .db.selectFrom('audit_events')
      .selectAll()
      .where('id', '>', before)
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.hash).toBe(auditRecordHash(row));
    expect(rows[1]?.actor_role).toBe('DM');
    expect(rows[1]?.previous_hash).toBe(rows[0]?.hash);
    // The stored time is the hashed one: to the millisecond, the same for both.
    expect(rows[0]?.occurred_at.getTime()).toBe(rows[1]?.occurred_at.getTime());
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, breaks: [] });
  });

  it('rolls the whole transaction back when its audit append fails', async () => {
    const before = await storedCount();
    await expect(
      inTransaction(database().db, async (trx) => {
        await insertLoginFailure(trx, 'append@fails.test');
        await recordAudit(trx, actor, event(5001));
        // A record the database cannot store (text where the study id, a number, belongs): the
        // append fails after COMMIT has already been sent behind it.
        pendingAuditRecordsOf(trx).push({
          ...(pendingAuditRecordsOf(trx)[0] as ReturnType<typeof pendingAuditRecordsOf>[number]),
          study_id: 'not a number' as unknown as number,
        });
      }),
    ).rejects.toThrow(/invalid input syntax for type integer/);
    expect(await loginFailuresOf('append@fails.test')).toEqual([]);
    expect(await storedCount()).toBe(before);
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, breaks: [] });
    // The connection is usable again afterwards.
    await inTransaction(database().db, async (trx) => recordAudit(trx, actor, event(5002)));
    expect(await storedCount()).toBe(before + 1);
  });

  it('runs its first statement inside the transaction, though BEGIN is sent without waiting', async () => {
    const email = 'first@statement.test';
    await expect(
      inTransaction(database().db, async (trx) => {
        await insertLoginFailure(trx, email);
        throw new Error('undo it');
      }),
    ).rejects.toThrow('undo it');
    expect(await loginFailuresOf(email)).toEqual([]);
    const [first, second] = await inTransaction(database().db, async (trx) => [
      (await sql<{ id: string }>`select txid_current()::text as id`.execute(trx)).rows[0]?.id,
      (await sql<{ id: string }>`select txid_current()::text as id`.execute(trx)).rows[0]?.id,
    ]);
    expect(first).toBeDefined();
    expect(first).toBe(second);
  });

  it('commits the records with the change when the work leaves a statement running', async () => {
    const before = await storedCount();
    await inTransaction(database().db, async (trx) => {
      await recordAudit(trx, actor, event(6001));
      // Not awaited: the append is held back behind it, and COMMIT must not overtake the append.
      void sql`select pg_sleep(0.2)`.execute(trx);
    });
    expect(await storedCount()).toBe(before + 1);
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, breaks: [] });
  });

  // A statement sent without waiting: the column takes a number, and this text is not one.
  const insertBrokenLoginFailure = (trx: Transaction<Database>, email: string) =>
    sendUnanswered(
      trx,
      trx.insertInto('login_failures').values({
        email,
        client_ip: '',
        failure_count: 'not a number' as unknown as number,
        first_failure_at: new Date(),
      }),
    );

  it('runs a statement sent without waiting before the statements sent after it', async () => {
    const email = 'unanswered@first.test';
    const seenInside = await inTransaction(database().db, async (trx) => {
      const written = sendUnanswered(
        trx,
        trx
          .insertInto('login_failures')
          .values({ email, client_ip: '', failure_count: 1, first_failure_at: new Date() })
          .returning('email'),
      );
      const seen = await trx
        .selectFrom('login_failures')
        .select('email')
        .where('email', '=', email)
        .execute();
      return { seen, written: await written };
    });
    expect(seenInside).toEqual({ seen: [{ email }], written: [{ email }] });
    expect(await loginFailuresOf(email)).toEqual([{ email }]);
  });

  it('fails the whole transaction with the own error of a statement sent without waiting', async () => {
    const before = await storedCount();
    // Nothing after it: with audit records, the append fails behind it; without, COMMIT rolls back.
    for (const audited of [true, false]) {
      const email = `unanswered-${audited}@fails.test`;
      await expect(
        inTransaction(database().db, async (trx) => {
          await insertLoginFailure(trx, email);
          if (audited) await recordAudit(trx, actor, event(7001));
          void insertBrokenLoginFailure(trx, `${email}.broken`);
        }),
      ).rejects.toThrow(/invalid input syntax for type integer/);
      expect(await loginFailuresOf(email)).toEqual([]);
    }
    // A statement after it fails only because the transaction is aborted: the first error is thrown.
    await expect(
      inTransaction(database().db, async (trx) => {
        void insertBrokenLoginFailure(trx, 'unanswered-then-read@fails.test');
        await trx.selectFrom('login_failures').select('email').execute();
      }),
    ).rejects.toThrow(/invalid input syntax for type integer/);
    expect(await storedCount()).toBe(before);
    expect(await verifyAuditChain(database().db)).toMatchObject({ ok: true, breaks: [] });
  });

  it('refuses sendUnanswered in a transaction it did not open', async () => {
    await expect(
      database()
        .db.transaction()
        .execute(async (trx) => sendUnanswered(trx, trx.selectFrom('app_meta').select('key'))),
    ).rejects.toThrow(/not opened by inTransaction/);
  });
});
