import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrl } from '../../test/database-templates.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import type { DatabaseHandle } from './database.ts';
import { holdStartupLock } from './hold-startup-lock.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL)('the start-up lock on PostgreSQL', () => {
  let database: DatabaseHandle;
  let url = '';

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db);
    url = databaseUrl(inject('testDatabaseSources').postgres?.url ?? '', rows[0]?.name ?? '');
  });

  afterAll(async () => {
    await database?.close();
  });

  it('runs the start-up work of processes started together one after another', async () => {
    const steps: string[] = [];
    const start = (name: string) =>
      holdStartupLock(url, async () => {
        steps.push(`${name} begins`);
        await wait(150);
        steps.push(`${name} ends`);
        return name;
      });
    expect(await Promise.all([start('a'), start('b'), start('c')])).toEqual(['a', 'b', 'c']);
    // Never two at once: each begins after the one before it ended.
    for (let i = 0; i < steps.length; i += 2) {
      expect(steps[i]?.endsWith('begins')).toBe(true);
      expect(steps[i + 1]).toBe(steps[i]?.replace('begins', 'ends'));
    }
  });

  it('lets the next process in when the work fails', async () => {
    await expect(
      holdStartupLock(url, async () => {
        throw new Error('migration failed');
      }),
    ).rejects.toThrow('migration failed');
    expect(await holdStartupLock(url, async () => 'started')).toBe('started');
  });

  it('runs the work at once without a PostgreSQL URL (the embedded database)', async () => {
    expect(await holdStartupLock(undefined, async () => 'pglite')).toBe('pglite');
  });
});
