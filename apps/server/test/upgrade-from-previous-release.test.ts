import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyAuditChain } from '../src/audit/verify-audit-chain.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openPostgres } from '../src/db/database.ts';
import { knownMigrationNames } from '../src/db/migrate.ts';
import type { Database } from '../src/db/schema.ts';
import type { App } from '../src/http/types.ts';
import { openDatabase } from '../src/open-database.ts';
import { databaseUrl, dropPostgresDatabase } from './database-templates.ts';
import { buildTestApp, type SignedIn, signIn } from './test-app.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The living demo as the previous release seeded it (fixtures/README.md says how it is made). */
const FIXTURE = path.join(here, 'fixtures', 'previous-release.sql.gz');
const MIGRATIONS_DIR = path.join(here, '..', 'src', 'db', 'migrations');
const CLI = path.join(here, '..', 'src', 'cli', 'main.ts');

/**
 * The tables that hold what people entered and what the audit trail says about it. A migration may
 * add columns or tables, but never lose or add a row of these. (Read-model tables such as
 * subject_facts are left out: they are derived, and a new version may rebuild them.)
 */
const CORE_TABLES = [
  'users',
  'studies',
  'sites',
  'memberships',
  'study_definitions',
  'subjects',
  'subject_visits',
  'form_instances',
  'item_values',
  'queries',
  'query_messages',
  'signatures',
  'sdv_marks',
  'randomization_slots',
  'lab_results',
  'attachments',
  'form_photos',
  'notifications',
  'audit_events',
] as const;

async function rowCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of CORE_TABLES) {
    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from ${sql.table(table)}`.execute(db);
    counts[table] = rows[0]?.count ?? -1;
  }
  return counts;
}

async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}

/** psql reads the gunzipped dump from its standard input; it stops at the first failed statement. */
function restorePlainDump(url: string, dumpFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const psql = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', `--dbname=${url}`], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    psql.stderr.setEncoding('utf8');
    psql.stderr.on('data', (text: string) => {
      stderr += text;
    });
    psql.on('error', (error) =>
      reject(new Error(`psql could not be started (install the PostgreSQL client tools): ${error.message}`)),
    );
    psql.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`psql failed (exit ${code}): ${stderr.trim()}`)),
    );
    // psql stopping early closes its end: its exit code reports why.
    psql.stdin.on('error', () => {});
    fs.createReadStream(dumpFile).pipe(createGunzip()).pipe(psql.stdin);
  });
}

const postgres = process.env.TEST_DATABASE_URL ? inject('testDatabaseSources').postgres : undefined;

/**
 * Issue 52 item 5: a database made by the previous release is upgraded by this one. The living
 * demo as the previous release seeded it (a plain-SQL dump) is restored into a new database, opened
 * the way the server opens it at start (the migrations newer than the dump run forward), and then
 * every main read-out must answer over it, its audit chain must verify, and no row is lost.
 * PostgreSQL only: the fixture is a pg_dump, and production upgrades run there.
 */
describe.skipIf(!postgres)(
  'upgrading the living demo of the previous release' +
    (postgres ? '' : ' (skipped: needs PostgreSQL, set TEST_DATABASE_URL)'),
  () => {
    const name = `${postgres?.prefix}_upgrade`;
    const url = postgres ? databaseUrl(postgres.url, name) : '';
    let before: { migrations: string[]; counts: Record<string, number> };
    let database: DatabaseHandle;
    let app: App;
    let admin: SignedIn;
    let studyId: number;

    beforeAll(async () => {
      if (!postgres) return;
      const server = openPostgres({ connectionString: postgres.url, maxConnections: 1 });
      try {
        await sql`create database ${sql.id(name)}`.execute(server.db);
      } finally {
        await server.close();
      }
      await restorePlainDump(url, FIXTURE);

      // What the previous release left, read before this version touches the database.
      const asIs = openPostgres({ connectionString: url, maxConnections: 1 });
      try {
        before = { migrations: await appliedMigrations(asIs.db), counts: await rowCounts(asIs.db) };
      } finally {
        await asIs.close();
      }

      // As `npm start` does: open, migrate to the newest schema, check the read model.
      database = await openDatabase(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url }));
      app = await buildTestApp(database);
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await database?.close();
      if (postgres) await dropPostgresDatabase(postgres.url, name);
    });

    it('ran only the migrations newer than the dump, forward, and now lists every one', async () => {
      const known = await knownMigrationNames();
      // The previous release's migrations are a prefix of this one's: none edited, renamed or dropped.
      expect(before.migrations.length).toBeGreaterThan(0);
      expect(known.slice(0, before.migrations.length)).toEqual(before.migrations);
      expect(await appliedMigrations(database.db)).toEqual(known);
    });

    it('lost and added no row of the core tables', async () => {
      expect(before.counts.subjects).toBeGreaterThan(0);
      expect(before.counts.audit_events).toBeGreaterThan(0);
      expect(await rowCounts(database.db)).toEqual(before.counts);
    });

    it('has an intact audit chain, by the verifier and by `npm run cdms -- audit verify`', async () => {
      const verification = await verifyAuditChain(database.db);
      expect(verification.breaks).toEqual([]);
      expect(verification.ok).toBe(true);
      expect(verification.count).toBe(before.counts.audit_events);

      // The command an operator runs after an upgrade (README "Upgrading"): exit code 0.
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'audit', 'verify'], {
        env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'test', AUDIT_CHECKPOINT_KEY: '' },
      });
      expect(stdout).toContain('Audit trail intact');
    });

    describe('answers every main read-out', () => {
      const get = async (who: SignedIn, url: string) => {
        const response = await app.inject({
          method: 'GET',
          url,
          headers: { ...who.headers, 'accept-language': 'en' },
        });
        expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
        return response.json();
      };

      beforeAll(async () => {
        admin = await signIn(app, 'admin@demo.cdms');
        studyId = (
          await database.db
            .selectFrom('studies')
            .select('id')
            .where('code', '=', 'TMP-2026')
            .executeTakeFirstOrThrow()
        ).id;
      });

      it('the subject list and a saved form', async () => {
        const list = await get(admin, `/api/studies/${studyId}/subjects`);
        expect(list.total).toBeGreaterThan(0);
        const saved = await database.db
          .selectFrom('form_instances')
          .innerJoin('subjects', 'subjects.id', 'form_instances.subject_id')
          .select(['form_instances.subject_id', 'form_instances.visit_key', 'form_instances.form_key'])
          .where('subjects.study_id', '=', studyId)
          .where('form_instances.has_data', '=', true)
          .orderBy('form_instances.id')
          .executeTakeFirstOrThrow();
        const form = await get(
          admin,
          `/api/studies/${studyId}/subjects/${saved.subject_id}/forms/${saved.visit_key}/${saved.form_key}`,
        );
        expect(Object.keys(form.values).length).toBeGreaterThan(0);
      });

      it('the queries, SDV, dashboard and audit review', async () => {
        expect((await get(admin, `/api/studies/${studyId}/queries`)).total).toBeGreaterThan(0);
        await get(admin, `/api/studies/${studyId}/sdv/sites`);
        expect((await get(admin, `/api/studies/${studyId}/sdv/subjects`)).total).toBeGreaterThan(0);
        const dashboard = await get(admin, `/api/studies/${studyId}/dashboard`);
        expect(dashboard.study.code).toBe('TMP-2026');
        expect((await get(admin, `/api/studies/${studyId}/audit`)).total).toBeGreaterThan(0);
        const chain = await get(admin, `/api/studies/${studyId}/audit/chain`);
        expect(chain).toMatchObject({ state: 'intact', breakCount: 0 });
      });

      it('the study definition', async () => {
        const definition = await get(admin, `/api/studies/${studyId}/definition`);
        expect(definition.version).toBe('1.0.0');
        expect(definition.definition.forms.length).toBeGreaterThan(0);
      });

      it('the new design draft of a study in design: none yet, since the old release had no drafts', async () => {
        const inDesign = await database.db
          .selectFrom('studies')
          .select(['id', 'design_approval_required'])
          .where('status', '=', 'design')
          .executeTakeFirstOrThrow();
        // The column the migration added starts off for the studies that were there.
        expect(inDesign.design_approval_required).toBe(false);
        const dm = await signIn(app, 'dm@demo.cdms');
        expect(await get(dm, `/api/studies/${inDesign.id}/design-draft`)).toMatchObject({
          draft: null,
          changes: [],
          review: null,
        });
      });
    });
  },
);

/** The migrator has no `down` (db/migrate.ts): each migration file exports `up` and nothing else. */
describe('migrations are forward-only', () => {
  it('every migration file exports only `up`', async () => {
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.map((file) => file.replace(/\.ts$/, ''))).toEqual(await knownMigrationNames());
    for (const file of files) {
      const module = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Record<
        string,
        unknown
      >;
      expect(Object.keys(module), file).toEqual(['up']);
      expect(typeof module.up, file).toBe('function');
    }
  });
});
