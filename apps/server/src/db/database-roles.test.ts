import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseHandle } from './database.ts';
import { openDatabase } from './open-database.ts';

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/**
 * The two-role setup of README "Audit trail integrity", on a real PostgreSQL: an owner role that
 * owns the database and runs the migrations, and the server's role that only reads and writes rows.
 * The roles and the database are created here (CI connects as a superuser) and dropped afterwards.
 */
describe.skipIf(!testDatabaseUrl)('separate owner and server roles [postgres]', () => {
  const suffix = crypto.randomUUID().replaceAll('-', '').slice(0, 8);
  const ownerRole = `cdms_owner_test_${suffix}`;
  const appRole = `cdms_app_test_${suffix}`;
  const databaseName = `cdms_roles_test_${suffix}`;
  let database: DatabaseHandle | undefined;

  function urlAs(role: string): string {
    const url = new URL(testDatabaseUrl ?? '');
    url.username = role;
    url.password = '';
    url.pathname = `/${databaseName}`;
    return url.toString();
  }

  async function asSuperuser(statements: string[]): Promise<void> {
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  }

  function app() {
    if (!database) throw new Error('not open');
    return database.db;
  }

  beforeAll(async () => {
    await asSuperuser([
      `create role ${ownerRole} login`,
      `create role ${appRole} login`,
      `create database ${databaseName} owner ${ownerRole}`,
    ]);
    database = await openDatabase(
      loadConfig({ NODE_ENV: 'test', DATABASE_URL: urlAs(appRole), DATABASE_OWNER_URL: urlAs(ownerRole) }),
    );
  });

  afterAll(async () => {
    await database?.close();
    await asSuperuser([
      `drop database if exists ${databaseName} with (force)`,
      `drop role if exists ${appRole}`,
      `drop role if exists ${ownerRole}`,
    ]);
  });

  it('connects as the server role, which reads and writes as the application needs', async () => {
    const who = await sql<{ role: string }>`select current_user as role`.execute(app());
    expect(who.rows[0]?.role).toBe(appRole);
    await app().insertInto('app_meta').values({ key: 'roles-test', value: 'one' }).execute();
    await app().updateTable('app_meta').set({ value: 'two' }).where('key', '=', 'roles-test').execute();
    await app().deleteFrom('app_meta').where('key', '=', 'roles-test').execute();
    // An identity column: the insert draws from the table's own sequence.
    const study = await app()
      .insertInto('studies')
      .values({ code: 'ROLES-1', title: 'Roles' })
      .returning('id')
      .executeTakeFirst();
    expect(study?.id).toEqual(expect.any(Number));
    const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };
    await recordAudit(app(), actor, { type: 'site.created', entityType: 'site', entityId: 1 });
    await recordAudit(app(), actor, { type: 'site.updated', entityType: 'site', entityId: 1 });
    expect(await verifyAuditChain(app())).toMatchObject({ ok: true, count: 2 });
  });

  it('cannot change, delete, truncate, or unguard the audit trail', async () => {
    const attempts = [
      sql`update audit_events set reason = 'edited' where id = 1`,
      sql`delete from audit_events where id = 2`,
      sql`truncate audit_events`,
      sql`alter table audit_events disable trigger all`,
      sql`alter table audit_events disable trigger audit_events_append_only`,
      sql`drop trigger audit_events_append_only on audit_events`,
      sql`create or replace function audit_events_refuse_change() returns trigger language plpgsql as $$ begin return new; end; $$`,
      sql`delete from kysely_migration`,
    ];
    for (const attempt of attempts) {
      // 42501 insufficient_privilege: "permission denied" or "must be owner".
      await expect(attempt.execute(app()), attempt.compile(app()).sql).rejects.toMatchObject({
        code: '42501',
      });
    }
    expect(await verifyAuditChain(app())).toMatchObject({ ok: true, count: 2 });
  });

  it('starts again, two processes at once, without trouble (migrations done, grants repeated)', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: urlAs(appRole),
      DATABASE_OWNER_URL: urlAs(ownerRole),
    });
    const [first, second] = await Promise.all([openDatabase(config), openDatabase(config)]);
    try {
      await expect(first.db.selectFrom('audit_events').select('id').execute()).resolves.toHaveLength(2);
      await expect(sql`truncate audit_events`.execute(second.db)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await first.close();
      await second.close();
    }
  });
});
