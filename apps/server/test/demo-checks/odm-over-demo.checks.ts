import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { countOdmValues } from '../../src/odm/count-odm-values.ts';
import { exportOdm, type OdmVersion } from '../../src/odm/export-odm.ts';
import { readOdm } from '../../src/odm/read-odm.ts';
import { validateOdmFile } from '../../src/odm/validate-odm.ts';

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
      // The values in the file (its ItemData) are what the export counts as it writes and what an
      // export job counts before it starts.
      const itemData = fs.readFileSync(file, 'utf8').match(/<ItemData[\s>]/g)?.length ?? 0;
      expect(exported.counts.values).toBe(itemData);
      expect(await countOdmValues(db, { studyId })).toBe(itemData);
      if (version === '2.0') expect(exported.counts.queries).toBeGreaterThan(10);
    });
  }

  it('has a seeded ODM export job whose count is the values its file holds (not the stored rows)', async () => {
    const { db } = database();
    const job = await db
      .selectFrom('data_exports')
      .select(['id', 'values_total', 'values_done'])
      .where('study_id', '=', studyId)
      .where('format', '=', 'odm-1.3.2')
      .where('state', '=', 'done')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const chunks = await db
      .selectFrom('data_export_chunks')
      .select('bytes')
      .where('export_id', '=', job.id)
      .orderBy('seq')
      .execute();
    const text = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.bytes))).toString('utf8');
    const itemData = text.match(/<ItemData[\s>]/g)?.length ?? 0;
    expect(itemData).toBeGreaterThan(1000);
    expect({ total: job.values_total, done: job.values_done }).toEqual({ total: itemData, done: itemData });
  });
}
