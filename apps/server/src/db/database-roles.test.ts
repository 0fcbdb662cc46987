import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { restoreBackup } from '../backup/restore-backup.ts';
import { writeBackup } from '../backup/write-backup.ts';
import { loadConfig } from '../config.ts';
import { checkReadiness } from '../health/check-readiness.ts';
import { createMetrics } from '../metrics/create-metrics.ts';
import { readDatabaseGauges } from '../metrics/read-database-gauges.ts';
import { openDatabase } from '../open-database.ts';
import { auditRecordHash } from './audit-record.ts';
import type { DatabaseHandle } from './database.ts';
import { inTransaction } from './in-transaction.ts';

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

  const actor = { ...systemActor('test'), ip: '127.0.0.1', requestId: 'r1' };

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

  it('supplies only the content of audit records: no id, time, place or head of its choosing (issue 43)', async () => {
    const head = await app().selectFrom('audit_chain_head').selectAll().executeTakeFirstOrThrow();
    const forged = {
      id: head.last_id + 1,
      occurred_at: new Date(Date.now() - 183 * 24 * 3600 * 1000),
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
      ip: '',
      request_id: '',
      previous_hash: head.last_hash,
    };
    const attempts = [
      // The forgery: a back-dated record hashed with the project's own function.
      app()
        .insertInto('audit_events')
        .values({ ...forged, hash: auditRecordHash(forged) }),
      sql`insert into audit_events (event_type, actor_label, entity_type) values ('x', 'x', 'x')`,
      sql`update audit_chain_head set last_id = last_id + 1`,
      sql`update audit_checkpoint_head set written = 0`,
      sql`delete from audit_checkpoint_head`,
      sql`alter table audit_events disable trigger audit_events_chain`,
      sql`alter function append_audit_records(jsonb) security invoker`,
    ];
    for (const attempt of attempts) {
      await expect(attempt.execute(app()), attempt.compile(app()).sql).rejects.toMatchObject({
        code: '42501',
      });
    }
    // A temporary table shadowing the head (pg_temp comes first in a search path) does not fool
    // the owner's function, whose search path is pinned.
    await inTransaction(app(), async (trx) => {
      await sql`create temporary table audit_chain_head (singleton boolean, last_id bigint, last_hash text) on commit drop`.execute(
        trx,
      );
      await sql`insert into audit_chain_head values (true, 1000, ${'f'.repeat(64)})`.execute(trx);
      await recordAudit(trx, actor, { type: 'site.updated', entityType: 'site', entityId: 3 });
    });
    expect(await verifyAuditChain(app())).toMatchObject({ ok: true, count: 3 });
  });

  it('verifies the audit trail read-only as the server role, without the owner (audit verify)', () => {
    const result = spawnSync(process.execPath, ['apps/server/src/cli/main.ts', 'audit', 'verify'], {
      cwd: path.resolve(import.meta.dirname, '../../../..'),
      env: {
        ...process.env,
        DATABASE_URL: urlAs(appRole),
        DATABASE_OWNER_URL: '',
        AUDIT_CHECKPOINT_KEY: '',
      },
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Audit trail intact: 3 records');
    expect(result.status).toBe(0);
  }, 120_000);

  it('starts again, two processes at once, without trouble (migrations done, grants repeated)', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: urlAs(appRole),
      DATABASE_OWNER_URL: urlAs(ownerRole),
    });
    const [first, second] = await Promise.all([openDatabase(config), openDatabase(config)]);
    try {
      await expect(first.db.selectFrom('audit_events').select('id').execute()).resolves.toHaveLength(3);
      await expect(sql`truncate audit_events`.execute(second.db)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await first.close();
      await second.close();
    }
  });

  // Issue 52: the server's role may not read the migrator's table, so readiness rests on the
  // database answering; the scrape's counts need only what the role may read.
  it('is ready as the server role (migrations unchecked) and reads the metrics gauges', async () => {
    expect(await checkReadiness(app())).toEqual({ ready: true, database: 'ok', migrations: 'unchecked' });
    const metrics = createMetrics(database as DatabaseHandle);
    const errors: unknown[] = [];
    await readDatabaseGauges(app(), metrics, (error) => errors.push(error));
    expect(errors).toEqual([]);
    expect(await metrics.registry.metrics()).toMatch(/^cdms_audit_checkpoint_age_seconds [\d.]+$/m);
  });

  it('backs up as the owner role and restores into a new database of another owner, which the server role then uses (issue 52)', async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-roles-backup-'));
    const otherOwner = `cdms_owner2_test_${suffix}`;
    const otherDatabase = `cdms_roles_restored_${suffix}`;
    const urlOf = (role: string, name: string) => {
      const url = new URL(urlAs(role));
      url.pathname = `/${name}`;
      return url.toString();
    };
    await asSuperuser([
      `create role ${otherOwner} login`,
      `create database ${otherDatabase} owner ${otherOwner}`,
    ]);
    try {
      const archive = path.join(workDir, 'backup.tar');
      const source = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: workDir,
        DATABASE_URL: urlAs(appRole),
        DATABASE_OWNER_URL: urlAs(ownerRole),
      });
      if (!database) throw new Error('not open');
      const manifest = await writeBackup(database, source, archive);
      const target = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: path.join(workDir, 'restored'),
        DATABASE_URL: urlOf(appRole, otherDatabase),
        DATABASE_OWNER_URL: urlOf(otherOwner, otherDatabase),
      });
      await restoreBackup(target, archive);
      // The start grants the server's role its rights in the restored database.
      const restored = await openDatabase(target);
      try {
        const who = await sql<{ role: string }>`select current_user as role`.execute(restored.db);
        expect(who.rows[0]?.role).toBe(appRole);
        const chain = await verifyAuditChain(restored.db);
        expect(chain).toMatchObject({ ok: true, count: manifest.audit.head?.lastId ?? 0 });
        await restored.db.insertInto('app_meta').values({ key: 'after-restore', value: 'written' }).execute();
      } finally {
        await restored.close();
      }
    } finally {
      await asSuperuser([
        `drop database if exists ${otherDatabase} with (force)`,
        `drop role if exists ${otherOwner}`,
      ]);
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
});
