import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database.ts';
import { exportOdm, type OdmVersion } from './export-odm.ts';
import { readOdm } from './read-odm.ts';
import { validateOdmFile } from './validate-odm.ts';

/**
 * Both ODM versions of the whole living demo (every stage of the lifecycle, repeating groups, reasons
 * for change, queries with threads, valid and invalidated signatures) validate against the official
 * schemas and read back with every subject. Registered through test/living-demo.test.ts, which
 * seeds the demo once.
 */
export function odmOverDemoChecks(database: () => DatabaseHandle): void {
  let workDir = '';
  let studyId = 0;
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-odm-demo-'));
    studyId = (
      await database()
        .db.selectFrom('studies')
        .select('id')
        .where('code', '=', 'TMP-2026')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  for (const version of ['1.3.2', '2.0'] as OdmVersion[]) {
    it(`exports ODM ${version} with the audit trail that the official schema accepts and that reads back`, async () => {
      const { db } = database();
      const exported = await exportOdm(db, { studyId, version, audit: true });
      const file = path.join(workDir, `demo-${version}.xml`);
      const out = fs.createWriteStream(file);
      for await (const chunk of exported.chunks) out.write(chunk);
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );

      const verdict = validateOdmFile(file, version);
      expect(verdict.status, verdict.output).toBe(0);

      const subjects = await db
        .selectFrom('subjects')
        .select('screening_number')
        .where('study_id', '=', studyId)
        .where('deleted_at', 'is', null)
        .execute();
      const read = readOdm(fs.readFileSync(file, 'utf8'));
      expect([...read.subjects.keys()].sort()).toEqual(subjects.map((row) => row.screening_number).sort());
      expect(exported.counts.subjects).toBe(subjects.length);
      expect(exported.counts.values).toBeGreaterThan(1000);
      if (version === '2.0') expect(exported.counts.queries).toBeGreaterThan(10);
    });
  }
}
