import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, expect, it } from 'vitest';
import { describeWithDatabase } from '../../test/test-database.ts';
import { systemActor } from '../audit/audit-events.ts';
import { openPGlite } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDemoData } from '../seed/demo-seed.ts';
import { exportTablesToFile, TablesScopeError } from './export-tables-to-file.ts';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-tables-'));
const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describeWithDatabase(
  'export-tables to a file',
  (database) => {
    const exportsAudited = () =>
      database()
        .db.selectFrom('audit_events')
        .select(['actor_label', 'site_id', 'after'])
        .where('event_type', '=', 'tables.exported')
        .orderBy('id')
        .execute();

    it('writes a ZIP of CSVs or an XLSX, leaves no partial file, and audits the export with its counts', async () => {
      const db = database().db;
      const zip = path.join(workDir, 'tables.zip');
      const result = await exportTablesToFile(db, systemActor('cli'), {
        study: 'TMP-2026',
        out: zip,
        format: 'csv',
        labels: 'ko',
        site: '01',
        forms: ['demographicInfo', 'adverseEvent'],
      });
      expect(fs.existsSync(`${zip}.partial`)).toBe(false);
      const files = unzipSync(new Uint8Array(fs.readFileSync(zip)));
      expect(Object.keys(files)).toEqual([
        'codebook.csv',
        'demographicInfo.csv',
        'adverseEvent.csv',
        'adverseEvent__events.csv',
      ]);
      expect(result.tables).toBe(3);
      // The living demo has data at site 01: the count is the database's, not a number written here.
      // Site 01 of this study: the ended demo study has a site 01 too.
      const site = await db
        .selectFrom('sites')
        .innerJoin('studies', 'studies.id', 'sites.study_id')
        .select('sites.id')
        .where('studies.code', '=', 'TMP-2026')
        .where('sites.institution_number', '=', '01')
        .executeTakeFirstOrThrow();
      const stored = await db
        .selectFrom('item_values as iv')
        .innerJoin('form_instances as fi', 'fi.id', 'iv.form_instance_id')
        .innerJoin('subjects as s', 's.id', 'fi.subject_id')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('s.site_id', '=', site.id)
        .where('s.deleted_at', 'is', null)
        .where('fi.has_data', '=', true)
        .where('fi.form_key', 'in', ['demographicInfo', 'adverseEvent'])
        .where('iv.item_key', 'in', ['birthDate', 'age', 'gender', 'hasAdverseEvent', 'events'])
        .executeTakeFirstOrThrow();
      expect(result.values).toBe(Number(stored.count));
      expect(result.values).toBeGreaterThan(0);

      const xlsx = path.join(workDir, 'tables.xlsx');
      await exportTablesToFile(db, systemActor('cli'), {
        study: 'TMP-2026',
        out: xlsx,
        format: 'xlsx',
        labels: null,
      });
      expect(Object.keys(unzipSync(new Uint8Array(fs.readFileSync(xlsx))))).toContain(
        'xl/worksheets/sheet1.xml',
      );

      expect(await exportsAudited()).toEqual([
        {
          actor_label: 'cli',
          site_id: site.id,
          after: {
            format: 'csv',
            file: zip,
            labels: 'ko',
            valuesAsOf: 'current',
            forms: ['demographicInfo', 'adverseEvent'],
            tables: 3,
            values: result.values,
          },
        },
        {
          actor_label: 'cli',
          site_id: null,
          after: expect.objectContaining({ format: 'xlsx', labels: null, forms: null }),
        },
      ]);
    });

    it('refuses an unknown study, site or form, and a file it cannot write: nothing written, nothing audited', async () => {
      const db = database().db;
      const before = (await exportsAudited()).length;
      const out = path.join(workDir, 'refused.zip');
      const input = { study: 'TMP-2026', out, format: 'csv' as const, labels: null };
      await expect(
        exportTablesToFile(db, systemActor('cli'), { ...input, study: 'NO-SUCH' }),
      ).rejects.toThrow(new TablesScopeError('There is no study NO-SUCH.'));
      await expect(exportTablesToFile(db, systemActor('cli'), { ...input, site: '99' })).rejects.toThrow(
        'Study TMP-2026 has no site 99.',
      );
      await expect(
        exportTablesToFile(db, systemActor('cli'), { ...input, forms: ['vitalSign', 'nope'] }),
      ).rejects.toThrow('Study TMP-2026 has no form vitalSign, nope.');
      const missingDirectory = path.join(workDir, 'no-such-directory', 'tables.zip');
      await expect(
        exportTablesToFile(db, systemActor('cli'), { ...input, out: missingDirectory }),
      ).rejects.toThrow();
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.existsSync(`${missingDirectory}.partial`)).toBe(false);
      expect(await exportsAudited()).toHaveLength(before);
    });
  },
  { seed: 'living-demo' },
);

it('runs as `npm run cdms -- export-tables`, choosing XLSX by the extension and refusing bad options', async () => {
  const dataDir = path.join(workDir, 'cli-data');
  const database = await openPGlite(dataDir);
  await migrateToLatest(database.db);
  await seedDemoData(database.db, { subjects: false });
  await database.close();
  const cdms = (args: string[]) =>
    spawnSync(process.execPath, ['apps/server/src/cli/main.ts', ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', AUDIT_CHECKPOINT_KEY: '' },
      encoding: 'utf8',
      timeout: 110_000,
    });
  const out = path.join(workDir, 'cli.xlsx');
  const written = cdms(['export-tables', '--study', 'TMP-2026', '--out', out, '--labels', 'en']);
  expect(written.stderr).toBe('');
  expect(written.stdout).toMatch(
    new RegExp(`Tables of TMP-2026 written to ${out} \\(xlsx\\): \\d+ tables, 0 values`),
  );
  expect(written.status).toBe(0);
  expect(Object.keys(unzipSync(new Uint8Array(fs.readFileSync(out))))).toContain('xl/workbook.xml');

  expect(cdms(['export-tables', '--study', 'TMP-2026']).status).toBe(2);
  expect(cdms(['export-tables', '--study', 'TMP-2026', '--out', out, '--labels', 'fr']).status).toBe(2);
  expect(cdms(['export-tables', '--study', 'TMP-2026', '--out', out, '--format', 'ods']).status).toBe(2);
  expect(cdms(['export-tables', '--study', 'TMP-2026', '--out', out, '--values', 'raw']).status).toBe(2);
  const unknown = cdms(['export-tables', '--study', 'TMP-2026', '--out', out, '--forms', 'nope']);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain('Study TMP-2026 has no form nope.');
}, 240_000);
