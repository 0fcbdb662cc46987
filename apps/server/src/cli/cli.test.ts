import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { rewriteAuditHistory } from '../../test/rewrite-audit-history.ts';
import { systemActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { openPGlite } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemoData } from '../seed/demo-seed.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-cli-'));
const anchoredDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-cli-anchored-'));
const exportDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-cli-export-'));
const seededDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-cli-seeded-'));

function cdms(args: string[], input?: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['apps/server/src/cli/main.ts', ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', AUDIT_CHECKPOINT_KEY: '', ...env },
    input,
    encoding: 'utf8',
    timeout: 110_000,
  });
}

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(anchoredDataDir, { recursive: true, force: true });
  fs.rmSync(exportDataDir, { recursive: true, force: true });
  fs.rmSync(seededDataDir, { recursive: true, force: true });
});

// Each test spawns the CLI (tsx start-up, PGlite open) once or more: seconds each, more on a busy machine.
describe('npm run cdms', { timeout: 120_000 }, () => {
  it('creates a system administrator from a password on stdin', () => {
    const result = cdms(
      ['create-admin', '--email', 'Chief@Hospital.kr', '--name', '책임자', '--password-stdin'],
      'head-of-trial-2026\n',
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Created system administrator chief@hospital.kr');
    expect(result.status).toBe(0);
    const again = cdms(
      ['create-admin', '--email', 'chief@hospital.kr', '--name', 'x', '--password-stdin'],
      'head-of-trial-2026\n',
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('refuses a weak password and a missing option', () => {
    expect(
      cdms(['create-admin', '--email', 'a@b.kr', '--name', 'A', '--password-stdin'], 'weak\n').status,
    ).toBe(2);
    expect(cdms(['create-admin', '--name', 'A'], 'whatever-2026\n').status).toBe(2);
    const common = cdms(
      ['create-admin', '--email', 'a@b.kr', '--name', 'A', '--password-stdin'],
      'password1234\n',
    );
    expect(common.status).toBe(2);
    expect(common.stderr).toContain('most common passwords');
    expect(cdms(['no-such-command']).status).toBe(2);
  });

  it('seeds the demo into an empty database only (seed-demo)', async () => {
    const seeded = cdms(['seed-demo', '--without-subjects'], undefined, { DATA_DIR: seededDataDir });
    expect(seeded.stderr).toBe('');
    expect(seeded.stdout).toMatch(/^Demo study and accounts seeded in [\d.]+ s\.$/m);
    expect(seeded.status).toBe(0);
    const database = await openPGlite(seededDataDir);
    try {
      const users = await database.db.selectFrom('users').select('email').orderBy('email').execute();
      expect(users.map((user) => user.email)).toContain('crc@demo.cdms');
      expect(await database.db.selectFrom('subjects').select('id').execute()).toEqual([]);
    } finally {
      await database.close();
    }
    const again = cdms(['seed-demo'], undefined, { DATA_DIR: seededDataDir });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already has users');
  });

  it('creates a study in design with its definition (study create), after the demo seed above', async () => {
    const env = { DATA_DIR: seededDataDir };
    const definition = path.join(repositoryRoot, 'packages/study/definitions/tm-perforation.json');
    const broken = path.join(seededDataDir, 'broken.json');
    fs.writeFileSync(broken, JSON.stringify({ key: 'x', version: '1', visits: [] }));
    const base = ['study', 'create', '--title-ko', '청력 추적 관찰 연구', '--admin-email', 'admin@demo.cdms'];

    const refused = cdms([...base, '--code', 'HEAR-CLI', '--definition', broken], undefined, env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('The study definition document is not valid');
    expect(refused.stderr).toContain('/version: Does not match the pattern');
    expect(cdms([...base.slice(0, 4)], undefined, env).status).toBe(2);

    const created = cdms(
      [...base, '--code', 'HEAR-CLI2', '--kind', 'observational', '--definition', definition],
      undefined,
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(
      /^Created study HEAR-CLI2 \(id \d+\), in design; first ADMIN admin@demo\.cdms\.$/m,
    );
    expect(created.stdout).toMatch(/^Installed its definition version 1\.0\.0 \(sha256 [0-9a-f]{64}\)\.$/m);
    expect(created.status).toBe(0);
    const database = await openPGlite(seededDataDir);
    try {
      const study = await database.db
        .selectFrom('studies')
        .select(['status', 'kind'])
        .where('code', '=', 'HEAR-CLI2')
        .executeTakeFirstOrThrow();
      expect(study).toEqual({ status: 'design', kind: 'observational' });
    } finally {
      await database.close();
    }

    const badFormat = cdms(
      [...base, '--code', 'HEAR-CLI3', '--screening-format', 'H-{seq:3}'],
      undefined,
      env,
    );
    expect(badFormat.status).toBe(2);
    expect(badFormat.stderr).toContain(
      'screeningNumberFormat: A format must contain the institution number {site} once.',
    );
    const unknownMember = cdms(
      [...base, '--code', 'HEAR-CLI3', '--site', 'H01:한빛:01', '--member', 'nobody@demo.cdms:CRC:H01'],
      undefined,
      env,
    );
    expect(unknownMember.status).toBe(1);
    expect(unknownMember.stderr).toContain('No account has the email nobody@demo.cdms');
    const withOptions = cdms(
      [
        ...base,
        ...['--code', 'HEAR-CLI3', '--screening-format', 'H{site}-{seq:4}', '--randomization', 'off'],
        ...['--site', 'H01:한빛대학교병원: 본원:01', '--site', 'H03:새봄병원:03'],
        ...['--member', 'dm@demo.cdms:DM', '--member', 'crc@demo.cdms:CRC:H01,H03'],
      ],
      undefined,
      env,
    );
    expect(withOptions.stderr).toBe('');
    expect(withOptions.stdout).toContain('Screening numbers H{site}-{seq:4}; randomization off.');
    expect(withOptions.stdout).toContain('Sites: H01, H03.');
    expect(withOptions.status).toBe(0);
    const after = await openPGlite(seededDataDir);
    try {
      const study = await after.db
        .selectFrom('studies')
        .select(['id', 'screening_number_format', 'randomization_enabled'])
        .where('code', '=', 'HEAR-CLI3')
        .executeTakeFirstOrThrow();
      expect(study).toMatchObject({
        screening_number_format: 'H{site}-{seq:4}',
        randomization_enabled: false,
      });
      const sites = await after.db
        .selectFrom('sites')
        .select(['code', 'name'])
        .where('study_id', '=', study.id)
        .orderBy('code')
        .execute();
      expect(sites).toEqual([
        { code: 'H01', name: '한빛대학교병원: 본원' },
        { code: 'H03', name: '새봄병원' },
      ]);
      const roles = await after.db
        .selectFrom('memberships')
        .select('role')
        .where('study_id', '=', study.id)
        .orderBy('role')
        .execute();
      expect(roles.map((row) => row.role)).toEqual(['ADMIN', 'CRC', 'DM']);
    } finally {
      await after.close();
    }
  });

  it('backs up the seeded database and restores it into a new DATA_DIR (backup, restore), where audit verify passes', () => {
    const archive = path.join(seededDataDir, 'backup.tar');
    const restoredDataDir = path.join(seededDataDir, 'restored');
    const nothing = cdms(['backup', '--out', archive], undefined, {
      DATA_DIR: path.join(seededDataDir, 'none'),
    });
    expect(nothing.stderr).toContain('There is no database in DATA_DIR');
    expect(nothing.status).toBe(1);
    expect(cdms(['backup'], undefined, { DATA_DIR: seededDataDir }).status).toBe(2);

    const backup = cdms(['backup', '--out', archive], undefined, { DATA_DIR: seededDataDir });
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(
      /^Backup written to .*backup\.tar \(\d+ bytes\) in [\d.]+ s: \d+ tables, \d+ rows, audit head \d+, 1 parts\.$/m,
    );
    expect(backup.status).toBe(0);

    const restore = cdms(['restore', archive], undefined, { DATA_DIR: restoredDataDir });
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toContain('rows match the manifest');
    expect(restore.status).toBe(0);
    const verify = cdms(['audit', 'verify'], undefined, { DATA_DIR: restoredDataDir });
    expect(verify.stdout).toContain('Audit trail intact');
    expect(verify.status).toBe(0);
  });

  it('verifies the audit trail and reports every broken record after tampering', async () => {
    const intact = cdms(['audit', 'verify']);
    expect(intact.status).toBe(0);
    expect(intact.stdout).toContain('Audit trail intact: 1 records');
    expect(intact.stdout).toContain('Checkpoints NOT checked: AUDIT_CHECKPOINT_KEY is not set');

    const database = await openPGlite(dataDir);
    await sql`alter table audit_events disable trigger audit_events_append_only`.execute(database.db);
    await sql`update audit_events set actor_label = 'someone else' where id = 1`.execute(database.db);
    await database.close();

    const broken = cdms(['audit', 'verify']);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('Audit trail BROKEN: 1 problems in 1 records.');
    expect(broken.stderr).toContain('record 1: hash_mismatch');
  });

  it('anchors the chain with a signed checkpoint and reports a rewritten chain against it', async () => {
    const checkpointFile = path.join(anchoredDataDir, 'anchor', 'checkpoints.jsonl');
    const env = {
      DATA_DIR: anchoredDataDir,
      AUDIT_CHECKPOINT_KEY: 'cli-test-checkpoint-key-0123456789abcdef',
      AUDIT_CHECKPOINT_FILE: checkpointFile,
    };
    const database = await openPGlite(anchoredDataDir);
    await migrateToLatest(database.db);
    for (let index = 0; index < 4; index += 1) {
      await recordAudit(database.db, systemActor('test'), {
        type: 'site.updated',
        entityType: 'site',
        entityId: index,
      });
    }
    await database.close();

    const written = cdms(['audit', 'checkpoint'], undefined, env);
    expect(written.stderr).toBe('');
    expect(written.stdout).toContain(`Checkpoint written to ${checkpointFile}: record 4, 4 records`);
    expect(written.status).toBe(0);

    const rewritten = await openPGlite(anchoredDataDir);
    await rewriteAuditHistory(rewritten.db, 2);
    await rewritten.close();

    const verified = cdms(['audit', 'verify'], undefined, env);
    expect(verified.stdout).toContain('Audit trail intact: 4 records');
    expect(verified.stderr).toContain('Checkpoints DISAGREE: 1 problems in 1 checkpoints');
    expect(verified.stderr).toContain('line 1 (record 4): hash_differs');
    expect(verified.status).toBe(1);

    // Issue 43: the file that gives the rewrite away is deleted too. The database counted it.
    fs.rmSync(checkpointFile);
    const withoutFile = cdms(['audit', 'verify'], undefined, env);
    expect(withoutFile.stdout).toContain('Audit trail intact: 4 records');
    expect(withoutFile.stderr).toContain(
      `Checkpoints MISSING: the database counted 1 checkpoints written to ${checkpointFile}, but there is no file.`,
    );
    expect(withoutFile.status).toBe(1);
    // Three CLI processes and two database opens: well over the default 30 s on a busy machine.
  }, 180_000);

  it('verifies without migrating: a database of an older version is reported, not changed', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-cli-unmigrated-'));
    try {
      const nothing = cdms(['audit', 'verify'], undefined, { DATA_DIR: empty });
      expect(nothing.stderr).toContain('There is no database in DATA_DIR');
      expect(nothing.status).toBe(1);
      const database = await openPGlite(empty);
      await database.close();
      const unmigrated = cdms(['audit', 'verify'], undefined, { DATA_DIR: empty });
      expect(unmigrated.stderr).toContain('has not been migrated to this version of CDMS');
      expect(unmigrated.status).toBe(1);
      const reopened = await openPGlite(empty);
      const { rows } = await sql<{ tables: number }>`
        select count(*)::int as tables from pg_tables where schemaname = 'public'`.execute(reopened.db);
      await reopened.close();
      expect(rows[0]?.tables).toBe(0);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  }, 120_000);

  it('exports a study as ODM into a file and audits the export (export-odm)', async () => {
    const database = await openPGlite(exportDataDir);
    await migrateToLatest(database.db);
    await seedDemoData(database.db, { subjects: false });
    await database.close();
    const env = { DATA_DIR: exportDataDir };
    const out = path.join(exportDataDir, 'study.odm.xml');

    const written = cdms(
      ['export-odm', '--study', 'TMP-2026', '--out', out, '--odm', '2.0', '--audit'],
      undefined,
      env,
    );
    expect(written.stderr).toBe('');
    expect(written.stdout).toContain(
      `ODM 2.0 of TMP-2026 written to ${out}: 0 subjects, 0 values, 0 queries`,
    );
    expect(written.status).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toContain('<ODM xmlns="http://www.cdisc.org/ns/odm/v2.0"');
    expect(text).toContain('<StudyEventDef OID="SE.v1"');

    expect(cdms(['export-odm', '--study', 'TMP-2026'], undefined, env).status).toBe(2);
    expect(
      cdms(['export-odm', '--study', 'TMP-2026', '--out', out, '--odm', '1.2'], undefined, env).status,
    ).toBe(2);
    const unknown = cdms(['export-odm', '--study', 'NO-SUCH', '--out', out], undefined, env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('There is no study NO-SUCH.');

    const reopened = await openPGlite(exportDataDir);
    const audited = await reopened.db
      .selectFrom('audit_events')
      .select(['actor_label', 'after'])
      .where('event_type', '=', 'odm.exported')
      .execute();
    await reopened.close();
    expect(audited).toEqual([
      {
        actor_label: 'cli',
        after: expect.objectContaining({ format: 'ODM 2.0', subjects: 0, withAudit: true }),
      },
    ]);
  }, 120_000);
});
