import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeWithDatabase } from '../test-database.ts';
import { changedTables, databaseFingerprint, nextTransactionId } from './database-fingerprint.ts';

// On PGlite only, as the fuzz suite runs: a PostgreSQL server's transaction ids also move with the
// other test files' writes in their own databases (see nextTransactionId).
describeWithDatabase(
  "the fuzz suite's change detection",
  (database) => {
    it('sees no new transaction id after reads, and one after any write, even one rolled back', async () => {
      const db = database().db;
      const start = await nextTransactionId(db);
      await db.selectFrom('users').selectAll().execute();
      await databaseFingerprint(db);
      expect(await nextTransactionId(db)).toBe(start);

      await sql`update users set name = name || '' where email = 'crc@demo.cdms'`.execute(db);
      const afterWrite = await nextTransactionId(db);
      expect(afterWrite).not.toBe(start);

      await expect(
        db.transaction().execute(async (trx) => {
          await sql`update users set name = 'x' where email = 'crc@demo.cdms'`.execute(trx);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await nextTransactionId(db)).not.toBe(afterWrite);
    });

    it('fingerprints a changed row as a changed table', async () => {
      const db = database().db;
      const before = await databaseFingerprint(db);
      await sql`update users set name = name || '.' where email = 'pi@demo.cdms'`.execute(db);
      expect(changedTables(before, await databaseFingerprint(db))).toEqual(['users']);
    });
  },
  { seed: 'demo', kinds: ['pglite'] },
);
