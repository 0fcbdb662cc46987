import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app.ts';
import { createTestDatabase, describeWithDatabase } from '../../test/test-database.ts';
import { knownMigrationNames } from '../db/migrate.ts';
import type { App } from '../http/types.ts';

describeWithDatabase('health probes', (database) => {
  let app: App;

  beforeAll(async () => {
    app = await buildTestApp(database(), {}, { notificationWorker: false, exportRunner: false });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers /health/live and /health/ready while the database is current', async () => {
    const live = await app.inject({ method: 'GET', url: '/health/live', remoteAddress: '203.0.113.9' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    const ready = await app.inject({ method: 'GET', url: '/health/ready', remoteAddress: '203.0.113.9' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'current' });
    // The old probe stays as it was.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('is not ready while a migration of this code is missing from the database', async () => {
    const names = await knownMigrationNames();
    const last = names.at(-1) as string;
    await sql`delete from kysely_migration where name = ${last}`.execute(database().db);
    try {
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error).toMatchObject({
        code: 'not_ready',
        details: { database: 'ok', migrations: 'pending', pending: [last] },
      });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last}, ${new Date().toISOString()})`.execute(
        database().db,
      );
    }
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });
});

it('is not ready, and still live, when the database is gone', async () => {
  const database = await createTestDatabase('pglite');
  const app = await buildTestApp(database, {}, { notificationWorker: false, exportRunner: false });
  await app.ready();
  await database.close();
  try {
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error).toMatchObject({
      code: 'not_ready',
      details: { database: 'failed', migrations: 'unchecked' },
    });
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});
