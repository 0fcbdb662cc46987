import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from './database.ts';
import { inTransaction } from './in-transaction.ts';
import { ConnectionLock } from './pglite-dialect.ts';

describe('ConnectionLock', () => {
  it('hands the lock out in request order, one holder at a time', async () => {
    const lock = new ConnectionLock();
    const events: string[] = [];
    const holder = async (name: string, waitMs: number) => {
      const release = await lock.acquire();
      events.push(`${name}:start`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      events.push(`${name}:end`);
      release();
    };
    await Promise.all([holder('a', 15), holder('b', 1), holder('c', 5)]);
    expect(events).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });
});

describe('PGlite dialect', () => {
  let database: DatabaseHandle;
  // Kysely is typed by our schema; these tests use a scratch table of their own.
  // biome-ignore lint/suspicious/noExplicitAny: scratch table outside the typed schema
  const scratch = () => database.db as any;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await sql`create table scratch (name text primary key)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps two concurrent transactions apart: one rolls back, the other row stays', async () => {
    const committing = inTransaction(database.db, async (trx) => {
      await sql`insert into scratch (name) values ('kept')`.execute(trx);
      // Give the other transaction every chance to run in between.
      await new Promise((resolve) => setTimeout(resolve, 30));
    });
    const rollingBack = inTransaction(database.db, async (trx) => {
      await sql`insert into scratch (name) values ('discarded')`.execute(trx);
      throw new Error('roll me back');
    });

    const [committed, rolledBack] = await Promise.allSettled([committing, rollingBack]);
    expect(committed.status).toBe('fulfilled');
    expect(rolledBack.status).toBe('rejected');
    const rows = await scratch().selectFrom('scratch').select('name').orderBy('name').execute();
    expect(rows).toEqual([{ name: 'kept' }]);
  });

  it('keeps exactly the committed rows of many interleaved transactions', async () => {
    await sql`truncate scratch`.execute(database.db);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) =>
        inTransaction(database.db, async (trx) => {
          await sql`insert into scratch (name) values (${`row-${index}`})`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, index % 3));
          if (index % 4 === 0) throw new Error('rollback');
        }),
      ),
    );
    const expected = outcomes
      .map((outcome, index) => (outcome.status === 'fulfilled' ? `row-${index}` : null))
      .filter((name): name is string => name !== null)
      .sort();
    const rows = await scratch().selectFrom('scratch').select('name').orderBy('name').execute();
    expect(rows.map((row: { name: string }) => row.name)).toEqual(expected);
    expect(expected).toHaveLength(30);
  });

  it('lets the event loop turn between holders, so a queue of queries does not shut out new requests', async () => {
    let finished = 0;
    const queries = Array.from({ length: 100 }, async (_, index) => {
      await sql`select ${index}::int as n`.execute(database.db);
      finished += 1;
    });
    // Stands for the socket read of a request that arrives while the queue is long.
    const finishedWhenTheLoopTurned = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(finished)),
    );
    await Promise.all(queries);
    expect(finishedWhenTheLoopTurned).toBeLessThan(10);
  });

  it('lets plain queries run while no transaction holds the connection', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        sql<{ n: number }>`select ${index}::int as n`.execute(database.db),
      ),
    );
    expect(results.map((result) => result.rows[0]?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('reports affected rows and reads int8 as numbers', async () => {
    await sql`truncate scratch`.execute(database.db);
    const inserted = await scratch()
      .insertInto('scratch')
      .values([{ name: 'a' }, { name: 'b' }])
      .executeTakeFirst();
    expect(Number(inserted.numInsertedOrUpdatedRows)).toBe(2);
    const count = await sql<{ count: number }>`select count(*) as count from scratch`.execute(database.db);
    expect(count.rows[0]?.count).toBe(2);
  });

  it('refuses streaming plainly', async () => {
    const consume = async () => {
      for await (const _row of scratch().selectFrom('scratch').selectAll().stream()) {
        // never reached: the first step throws
      }
    };
    await expect(consume()).rejects.toThrow(/not supported/);
  });
});
