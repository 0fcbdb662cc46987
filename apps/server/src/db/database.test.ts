import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './database.ts';

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!testDatabaseUrl)('the PostgreSQL pool [postgres]', () => {
  it('outlives a resting connection the server ends, and answers again on a new one', async () => {
    const database = openPostgres({ connectionString: testDatabaseUrl ?? '', maxConnections: 1 });
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    try {
      const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      const pid = before.rows[0]?.pid;
      // The connection now rests in the pool; the server ends it, as a restart or an administrator would.
      await admin.query('select pg_terminate_backend($1)', [pid]);
      // The pool learns of it from the socket: give it the moment it takes. Without a listener for
      // the pool's 'error' event this ended the process (an uncaught exception fails the test run).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      expect(after.rows[0]?.pid).not.toBe(pid);
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
