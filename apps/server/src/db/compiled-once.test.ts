import type { LogEvent } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { compiledOnce } from './compiled-once.ts';
import { inTransaction } from './in-transaction.ts';

const sent: string[] = [];
const log = (event: LogEvent) => {
  sent.push(event.query.sql);
};

describeWithDatabase(
  'a statement compiled once',
  (database) => {
    beforeAll(async () => {
      const { db } = database();
      await db
        .insertInto('app_meta')
        .values([
          { key: 'compiled-once-a', value: 'first' },
          { key: 'compiled-once-b', value: 'second' },
        ])
        .execute();
    });

    // Constants of the statement (the LIKE pattern, the limit) stay where kysely put them.
    const metaByKey = compiledOnce((db, params: { key: string; other: string }) =>
      db
        .selectFrom('app_meta')
        .select(['key', 'value'])
        .where((eb) => eb.or([eb('key', '=', params.key), eb('key', '=', params.other)]))
        .where('key', 'like', 'compiled-once-%')
        .orderBy('key')
        .limit(5),
    );

    it('binds each call its own values to the one text, in and outside a transaction', async () => {
      const { db } = database();
      sent.length = 0;
      const first = await metaByKey(db, { key: 'compiled-once-a', other: 'none' });
      const second = await inTransaction(db, (trx) =>
        metaByKey(trx, { key: 'compiled-once-b', other: 'compiled-once-a' }),
      );
      expect(first).toEqual([{ key: 'compiled-once-a', value: 'first' }]);
      expect(second.map((row) => row.value)).toEqual(['first', 'second']);
      const texts = sent.filter((text) => text.includes('app_meta'));
      expect(texts).toHaveLength(2);
      expect(texts[0]).toBe(texts[1]);
    });

    it('refuses a statement that works a value out instead of binding it as it is', async () => {
      const { db } = database();
      const byUpperKey = compiledOnce((executor, params: { key: string }) =>
        executor.selectFrom('app_meta').select('key').where('key', '=', params.key.toUpperCase()),
      );
      await expect(byUpperKey(db, { key: 'compiled-once-a' })).rejects.toThrow(
        /key is not a plain parameter/,
      );
    });
  },
  { log },
);
