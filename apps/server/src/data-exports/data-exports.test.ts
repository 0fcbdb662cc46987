import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataExport } from '@cdms/contract';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { countFormTableValues } from '../form-tables/index.ts';
import type { App } from '../http/types.ts';
import { readOdm } from '../odm/read-odm.ts';
import { validateOdmFile } from '../odm/validate-odm.ts';
import { claimExport } from './claim-export.ts';
import { type ExportFormat, exportFormats } from './export-formats.ts';
import { startExportRunner } from './export-runner.ts';
import { runExport } from './run-export.ts';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-data-exports-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/**
 * A format for the runner's own tests: `chunkCount` chunks of `chunkBytes`, one value each, waiting
 * `delayMs` before each (time for a cancel or a progress read), failing at chunk `failAt` if given.
 */
function testFormat(options: { chunkCount: number; chunkBytes: number; delayMs?: number; failAt?: number }) {
  const format: ExportFormat = {
    extension: 'txt',
    contentType: 'text/plain',
    countValues: async () => options.chunkCount,
    async *produce(_db, _input, onProgress) {
      for (let index = 0; index < options.chunkCount; index += 1) {
        if (options.delayMs) await sleep(options.delayMs);
        if (index === options.failAt) throw new Error('The test format broke down.');
        yield 'x'.repeat(options.chunkBytes);
        onProgress({ values: index + 1, subjects: index + 1 });
      }
    },
  };
  return { ...exportFormats, 'odm-1.3.2': format };
}

describeWithDatabase(
  'data exports',
  (database) => {
    let app: App;
    let studyId: number;
    let siteIds: number[];
    const session: Record<string, SignedIn> = {};
    const call = (who: string, method: 'GET' | 'POST', url: string, payload?: object, language = 'en') =>
      app.inject({
        method,
        url: `/api/studies/${studyId}/data-exports${url}`,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': language },
        ...(payload ? { payload } : {}),
      });
    const start = async (payload: object) => {
      const started = await call('dm', 'POST', '', payload);
      expect(started.statusCode, started.body).toBe(201);
      return started.json() as DataExport;
    };
    /** Claims and runs the oldest queued job here, as a runner would. */
    const runNext = async (formats = exportFormats) => {
      const job = await claimExport(database().db);
      if (!job) throw new Error('Nothing queued.');
      return runExport(database().db, job, formats);
    };
    const chunkCount = async (exportId: number) =>
      (
        await database()
          .db.selectFrom('data_export_chunks')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('export_id', '=', exportId)
          .executeTakeFirstOrThrow()
      ).count;
    const auditOf = (exportId: number) =>
      database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'actor_user_id', 'after'])
        .where('entity_type', '=', 'data_export')
        .where('entity_id', '=', String(exportId))
        .orderBy('id')
        .execute();

    beforeAll(async () => {
      const db = database().db;
      // The jobs are driven by the tests themselves (one runner test starts its own).
      app = await buildTestApp(database(), {}, { exportRunner: false });
      await app.ready();
      studyId = (
        await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
      ).id;
      siteIds = (
        await db.selectFrom('sites').select('id').where('study_id', '=', studyId).orderBy('id').execute()
      ).map((row) => row.id);
      for (const who of ['dm', 'admin', 'cra', 'pi', 'si'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      // The living demo's subjects take a while to seed on a busy machine.
    }, 240_000);
    afterAll(async () => {
      await app.close();
    });

    it('counts, before and after, the values the file holds (its ItemData) in ODM 1.3.2 and 2.0, not the stored rows', async () => {
      for (const format of ['odm-1.3.2', 'odm-2.0'] as const) {
        const started = await start({ format, scope: {}, auditTrail: false });
        expect(await runNext()).toBe('done');
        const done = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
        const download = await call('dm', 'GET', `/${started.id}/download`);
        const itemData = download.body.match(/<ItemData[\s>]/g)?.length ?? 0;
        expect(itemData, format).toBeGreaterThan(1000);
        expect({ format, total: done.valuesTotal, done: done.valuesDone }).toEqual({
          format,
          total: itemData,
          done: itemData,
        });
      }
    });

    it('exports the whole study as ODM 1.3.2: counted, downloaded whole, valid, audited', async () => {
      const started = await start({ format: 'odm-1.3.2', scope: {}, auditTrail: true });
      expect(started).toMatchObject({ state: 'queued', valuesDone: 0, valuesTotal: null });
      expect((await call('dm', 'GET', `/${started.id}/download`)).statusCode).toBe(409);
      expect(await runNext()).toBe('done');

      const db = database().db;
      const subjectCount = Number(
        (
          await db
            .selectFrom('subjects')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('study_id', '=', studyId)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).count,
      );
      const done = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
      expect(done).toMatchObject({
        state: 'done',
        subjectsDone: subjectCount,
        error: null,
      });
      expect(done.fileName).toMatch(/^TMP-2026_odm-1\.3\.2_\d+\.xml$/);

      const download = await call('dm', 'GET', `/${started.id}/download`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toContain(`filename="${done.fileName}"`);
      expect(download.rawPayload.length).toBe(done.byteSize);
      expect(download.body.startsWith('<?xml')).toBe(true);
      const file = path.join(workDir, 'whole.xml');
      fs.writeFileSync(file, download.rawPayload);
      expect(validateOdmFile(file, '1.3.2')).toMatchObject({ status: 0 });
      // Round trip: every subject and every value the job counted is in the file.
      const read = readOdm(download.body);
      expect(read.subjects.size).toBe(subjectCount);
      let valuesRead = 0;
      for (const subject of read.subjects.values())
        for (const forms of Object.values(subject.visits))
          for (const groups of Object.values(forms))
            for (const items of Object.values(groups))
              for (const item of Object.values(items)) valuesRead += item.values.length > 0 ? 1 : 0;
      // The job counts the file's values (ItemData, of which a repeating section gives several),
      // before it starts and as it goes.
      expect(valuesRead).toBeGreaterThan(1000);
      expect(done.valuesTotal).toBe(valuesRead);
      expect(done.valuesDone).toBe(valuesRead);

      const dm = session.dm?.userId;
      const audit = await auditOf(started.id);
      expect(audit.map((event) => event.event_type)).toEqual([
        'data_export.started',
        'data_export.finished',
        'data_export.downloaded',
      ]);
      for (const event of audit) expect(event.actor_user_id).toBe(dm);
      expect(audit[1]?.after).toMatchObject({
        format: 'odm-1.3.2',
        scope: {},
        auditTrail: true,
        subjects: subjectCount,
        values: valuesRead,
        sha256: done.sha256,
      });
    });

    it('narrows the export to the sites, statuses and forms asked for', async () => {
      const site = siteIds[1] as number;
      const started = await start({
        format: 'odm-1.3.2',
        scope: { siteIds: [site], formKeys: ['vitalSigns'] },
        auditTrail: false,
      });
      expect(await runNext()).toBe('done');
      const body = (await call('dm', 'GET', `/${started.id}/download`)).body;
      const expectedSubjects = (
        await database()
          .db.selectFrom('subjects')
          .select('screening_number')
          .where('site_id', '=', site)
          .where('deleted_at', 'is', null)
          .execute()
      ).map((row) => row.screening_number);
      const read = readOdm(body);
      expect([...read.subjects.keys()].sort()).toEqual(expectedSubjects.sort());
      for (const subject of read.subjects.values())
        for (const forms of Object.values(subject.visits))
          expect(Object.keys(forms)).not.toContain('demographicInfo');
      expect(body).not.toContain('AuditRecord');
      const file = path.join(workDir, 'narrow.xml');
      fs.writeFileSync(file, body);
      expect(validateOdmFile(file, '1.3.2')).toMatchObject({ status: 0 });
      // The count narrows with the scope: the values of those subjects' vital signs the file holds.
      const done = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
      const itemData = body.match(/<ItemData[\s>]/g)?.length ?? 0;
      expect(itemData).toBeGreaterThan(0);
      expect([done.valuesTotal, done.valuesDone]).toEqual([itemData, itemData]);
    });

    it('writes progress that only grows, and a cancel mid-way leaves no chunks', async () => {
      const started = await start({ format: 'odm-1.3.2', scope: {}, auditTrail: false });
      const formats = testFormat({ chunkCount: 12, chunkBytes: 400 * 1024, delayMs: 60 });
      const running = runNext(formats);
      const seen: number[] = [];
      for (;;) {
        const current = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
        seen.push(current.valuesDone);
        if (current.valuesDone >= 6) break;
        await sleep(30);
      }
      expect(await chunkCount(started.id)).toBeGreaterThan(0);
      const cancelled = await call('dm', 'POST', `/${started.id}/cancel`);
      expect(cancelled.json()).toMatchObject({ state: 'cancelled' });
      expect(await running).toBe('cancelled');
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(await chunkCount(started.id)).toBe(0);
      expect((await call('dm', 'GET', `/${started.id}/download`)).statusCode).toBe(409);
      const again = await call('dm', 'POST', `/${started.id}/cancel`, undefined, 'ko');
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({
        code: 'data_export_finished',
        message: '이미 끝난 내보내기는 취소할 수 없습니다.',
      });
      expect((await auditOf(started.id)).map((event) => event.event_type)).toContain('data_export.cancelled');
    });

    it('marks a failing export failed with its error and keeps none of its bytes', async () => {
      const started = await start({ format: 'odm-1.3.2', scope: {}, auditTrail: false });
      // Three chunks of 1 MB are written before the format breaks down.
      expect(await runNext(testFormat({ chunkCount: 6, chunkBytes: 1024 * 1024, failAt: 4 }))).toBe('failed');
      const failed = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
      expect(failed).toMatchObject({ state: 'failed', error: 'The test format broke down.', fileName: null });
      expect(await chunkCount(started.id)).toBe(0);
      expect((await auditOf(started.id)).map((event) => event.event_type)).toEqual([
        'data_export.started',
        'data_export.failed',
      ]);
    });

    it('puts a job back in the queue, without its chunks, when its process shuts down mid-way', async () => {
      const started = await start({ format: 'odm-1.3.2', scope: {}, auditTrail: false });
      const job = await claimExport(database().db);
      expect(job?.id).toBe(started.id);
      const shutdown = new AbortController();
      const formats = testFormat({ chunkCount: 10, chunkBytes: 600 * 1024, delayMs: 40 });
      const running = runExport(database().db, job as NonNullable<typeof job>, formats, shutdown.signal);
      while ((await chunkCount(started.id)) === 0) await sleep(20);
      shutdown.abort();
      expect(await running).toBe('requeued');
      expect(await chunkCount(started.id)).toBe(0);
      expect((await call('dm', 'GET', `/${started.id}`)).json()).toMatchObject({
        state: 'queued',
        valuesDone: 0,
      });
      // The next runner takes it from the start and finishes it.
      expect(await runNext()).toBe('done');
    });

    it('never gives one job to two runners, and reclaims a job whose runner died', async () => {
      const started = await start({ format: 'odm-1.3.2', scope: {}, auditTrail: false });
      const claims = await Promise.all([claimExport(database().db), claimExport(database().db)]);
      const claimed = claims.filter((claim) => claim !== undefined);
      expect(claimed.map((claim) => claim.id)).toEqual([started.id]);
      // Its runner "dies": nothing more is written, the heartbeat stops.
      expect(await claimExport(database().db)).toBeUndefined();
      await database()
        .db.updateTable('data_exports')
        .set({ heartbeat_at: new Date(Date.now() - 10 * 60_000) })
        .where('id', '=', started.id)
        .execute();
      const reclaimed = await claimExport(database().db);
      expect(reclaimed?.id).toBe(started.id);
      expect(reclaimed?.runner).not.toBe(claimed[0]?.runner);
      // The old runner, should it wake up, can no longer write: its run is lost, the new one finishes.
      expect(await runExport(database().db, claimed[0] as NonNullable<(typeof claimed)[0]>)).toBe('lost');
      expect(await runExport(database().db, reclaimed as NonNullable<typeof reclaimed>)).toBe('done');
    });

    it('runs queued jobs in the server process (the runner) and lists them newest first, paged', async () => {
      const runner = startExportRunner(database().db, { pollMs: 50 });
      try {
        const started = await start({
          format: 'odm-2.0',
          scope: { statuses: ['ongoing'] },
          auditTrail: true,
        });
        for (let attempt = 0; ; attempt += 1) {
          const current = (await call('admin', 'GET', `/${started.id}`)).json() as DataExport;
          if (current.state === 'done') break;
          expect(attempt).toBeLessThan(200);
          await sleep(50);
        }
      } finally {
        await runner.stop();
      }
      const list = (await call('dm', 'GET', '?size=10&page=1')).json();
      const total = Number(
        (
          await database()
            .db.selectFrom('data_exports')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('study_id', '=', studyId)
            .executeTakeFirstOrThrow()
        ).count,
      );
      expect(list.total).toBe(total);
      const ids = list.exports.map((row: DataExport) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(list.exports[0]).toMatchObject({ state: 'done', requestedBy: { name: expect.any(String) } });
      const second = (await call('dm', 'GET', '?size=10&page=2')).json();
      expect(second.exports).toHaveLength(Math.max(0, total - 10));
    });

    it('refuses other roles and bad input, in the caller’s language, changing nothing', async () => {
      const before = await database().db.selectFrom('data_exports').select('id').execute();
      const valid = { format: 'odm-1.3.2', scope: {}, auditTrail: false };
      expect((await call('cra', 'POST', '', valid)).statusCode).toBe(403);
      expect((await call('pi', 'GET', '')).statusCode).toBe(403);
      const unknown = await call(
        'dm',
        'POST',
        '',
        { ...valid, scope: { siteIds: [999999], formKeys: ['nope'] } },
        'ko',
      );
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().error).toMatchObject({
        code: 'data_export_unknown_scope',
        message: '이 연구에 없는 기관이나 CRF가 내보내기 범위에 있습니다.',
        details: { siteIds: [999999], formKeys: ['nope'] },
      });
      for (const payload of [
        { ...valid, format: 'pdf' },
        { ...valid, scope: { siteIds: [] } },
        { ...valid, scope: { statuses: ['asleep'] } },
        { ...valid, extra: 1 },
        { format: 'odm-2.0', scope: {} },
        { format: 'tables-csv', scope: {}, auditTrail: false, labels: 'fr' },
        { format: 'tables-csv', scope: {}, auditTrail: false, labels: null },
        { format: 'tables-xlsx', scope: {}, auditTrail: false, labels: 1 },
      ]) {
        const refused = await call('dm', 'POST', '', payload);
        expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
        expect(refused.json().error.code).toBe('validation_failed');
      }
      // Value labels with ODM are refused, not silently dropped (ODM carries its code lists itself).
      const labelsWithOdm = await call('dm', 'POST', '', { ...valid, labels: 'en' }, 'ko');
      expect(labelsWithOdm.statusCode).toBe(422);
      expect(labelsWithOdm.json().error).toMatchObject({
        code: 'data_export_labels_not_for_format',
        message:
          '값 라벨은 양식별 표(CSV, XLSX) 내보내기에서만 선택할 수 있습니다. ODM은 코드 목록을 함께 담습니다.',
      });
      // Values as entered are the tables' choice: ODM carries them in its audit trail.
      const enteredWithOdm = await call('dm', 'POST', '', { ...valid, valuesAsOf: 'entered' }, 'en');
      expect(enteredWithOdm.statusCode).toBe(422);
      expect(enteredWithOdm.json().error.code).toBe('data_export_as_entered_not_for_format');
      const unknownAsOf = await call('dm', 'POST', '', { ...valid, format: 'tables-csv', valuesAsOf: 'v1' });
      expect(unknownAsOf.statusCode).toBe(400);
      expect((await call('dm', 'GET', '/999999')).statusCode).toBe(404);
      expect((await call('dm', 'GET', '/999999/download')).statusCode).toBe(404);
      expect((await call('dm', 'POST', '/999999/cancel')).statusCode).toBe(404);
      expect((await call('dm', 'GET', '?size=7')).statusCode).toBe(400);
      expect(await database().db.selectFrom('data_exports').select('id').execute()).toEqual(before);
    });

    it('exports the per-form tables as a ZIP of CSVs and as XLSX, with labels in the language asked for', async () => {
      const db = database().db;
      const site01 = await db
        .selectFrom('sites')
        .select('id')
        .where('study_id', '=', studyId)
        .where('institution_number', '=', '01')
        .executeTakeFirstOrThrow();
      const created = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects`,
        headers: { ...(session.si?.headers ?? {}), 'accept-language': 'en' },
        payload: { siteId: site01.id, consentDate: '2025-03-03', initials: 'TBX' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const subject = created.json() as { id: number; subjectId: string };
      const formUrl = `/api/studies/${studyId}/subjects/${subject.id}/forms/v1/demographicInfo`;
      const current = (
        await app.inject({ method: 'GET', url: formUrl, headers: session.si?.headers })
      ).json();
      const saved = await app.inject({
        method: 'PUT',
        url: formUrl,
        headers: { ...(session.si?.headers ?? {}), 'accept-language': 'en' },
        payload: {
          values: { ...current.values, birthDate: '1971-02-03', gender: 'F' },
          version: current.version,
          reasons: {},
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const total = await countFormTableValues(db, { studyId });
      expect(total).toBeGreaterThan(0);

      const csv = await start({ format: 'tables-csv', scope: {}, auditTrail: false, labels: 'ko' });
      expect(csv).toMatchObject({
        format: 'tables-csv',
        labels: 'ko',
        state: 'queued',
        valuesAsOf: 'current',
      });
      expect(await runNext()).toBe('done');
      const csvDone = (await call('dm', 'GET', `/${csv.id}`)).json() as DataExport;
      expect(csvDone).toMatchObject({ state: 'done', valuesTotal: total, valuesDone: total, labels: 'ko' });
      expect(csvDone.fileName).toMatch(/^TMP-2026_tables-csv_\d+\.zip$/);
      const zipped = await call('dm', 'GET', `/${csv.id}/download`);
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-type']).toBe('application/zip');
      const files = unzipSync(new Uint8Array(zipped.rawPayload));
      expect(Object.keys(files)).toContain('codebook.csv');
      expect(Object.keys(files)).toContain('demographicInfo.csv');
      const lines = new TextDecoder('utf-8', { ignoreBOM: true })
        .decode(files['demographicInfo.csv'])
        .slice(1)
        .split('\r\n');
      const header = lines[0]?.split(',') ?? [];
      const row = lines.find((line) => line.startsWith(`${subject.subjectId},`))?.split(',') ?? [];
      expect(row[header.indexOf('birthDate')]).toBe('1971-02-03');
      expect(row[header.indexOf('gender')]).toBe('F');
      expect(row[header.indexOf('gender_label')]).toBe('여');

      // As entered (a study never amended has one version): the same values, the choice kept with the job.
      const xlsx = await start({
        format: 'tables-xlsx',
        scope: {},
        auditTrail: false,
        labels: 'en',
        valuesAsOf: 'entered',
      });
      expect(await runNext()).toBe('done');
      const xlsxDone = (await call('dm', 'GET', `/${xlsx.id}`)).json() as DataExport;
      expect(xlsxDone).toMatchObject({
        state: 'done',
        valuesTotal: total,
        valuesDone: total,
        labels: 'en',
        valuesAsOf: 'entered',
      });
      const startedRecord = await db
        .selectFrom('audit_events')
        .select('after')
        .where('event_type', '=', 'data_export.started')
        .where('entity_id', '=', String(xlsx.id))
        .executeTakeFirstOrThrow();
      expect(startedRecord.after).toMatchObject({ valuesAsOf: 'entered' });
      expect(xlsxDone.fileName).toMatch(/^TMP-2026_tables-xlsx_\d+\.xlsx$/);
      const workbook = await call('dm', 'GET', `/${xlsx.id}/download`);
      expect(workbook.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const parts = unzipSync(new Uint8Array(workbook.rawPayload));
      expect(Object.keys(parts)).toContain('xl/workbook.xml');
      const sheets = Object.entries(parts)
        .filter(([name]) => name.startsWith('xl/worksheets/'))
        .map(([, data]) => new TextDecoder().decode(data));
      // The subject's row holds the code and, beside it, its English label.
      const subjectRow = sheets
        .flatMap((sheet) => sheet.split('<row ').slice(1))
        .find((rowXml) => rowXml.includes(`>${subject.subjectId}<`) && rowXml.includes('>1971-02-03<'));
      expect(subjectRow).toMatch(/>F<\/t>.*>Female<\/t>/);

      // Codes only when no labels were asked for: no label columns.
      const plain = await start({
        format: 'tables-csv',
        scope: { formKeys: ['demographicInfo'] },
        auditTrail: false,
      });
      expect(plain.labels).toBeNull();
      expect(await runNext()).toBe('done');
      const plainFiles = unzipSync(
        new Uint8Array((await call('dm', 'GET', `/${plain.id}/download`)).rawPayload),
      );
      const plainHeader = new TextDecoder('utf-8', { ignoreBOM: true })
        .decode(plainFiles['demographicInfo.csv'])
        .split('\r\n')[0];
      expect(plainHeader).toContain('gender');
      expect(plainHeader).not.toContain('gender_label');
    });

    it('withholds every value of the personal-data items from a masked export, in every format, and counts what it writes', async () => {
      const db = database().db;
      // A subject whose initials and birth date are found nowhere else in the study's data.
      const site01 = await db
        .selectFrom('sites')
        .select('id')
        .where('study_id', '=', studyId)
        .where('institution_number', '=', '01')
        .executeTakeFirstOrThrow();
      const initials = 'QZX';
      const birthDate = '1963-07-29';
      const created = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects`,
        headers: { ...(session.si?.headers ?? {}), 'accept-language': 'en' },
        payload: { siteId: site01.id, consentDate: '2025-04-04', initials },
      });
      expect(created.statusCode, created.body).toBe(201);
      const subject = created.json() as { id: number; subjectId: string };
      const formUrl = `/api/studies/${studyId}/subjects/${subject.id}/forms/v1/demographicInfo`;
      const current = (
        await app.inject({ method: 'GET', url: formUrl, headers: session.si?.headers })
      ).json();
      // Saved twice, so the audit trail holds a change of the birth date (its old value too).
      for (const value of ['1963-07-28', birthDate]) {
        const form = (await app.inject({ method: 'GET', url: formUrl, headers: session.si?.headers })).json();
        const saved = await app.inject({
          method: 'PUT',
          url: formUrl,
          headers: { ...(session.si?.headers ?? {}), 'accept-language': 'en' },
          payload: {
            values: { ...current.values, birthDate: value, gender: 'M' },
            version: form.version,
            reasons: value === birthDate ? { birthDate: 'Typing error' } : {},
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);
      }
      const personal = [initials, '1963-07-2'];
      const holdsPersonal = (text: string) => personal.some((value) => text.includes(value));

      for (const format of ['odm-1.3.2', 'odm-2.0'] as const) {
        const files: Record<string, string> = {};
        for (const maskPersonalData of [false, true]) {
          const started = await start({ format, scope: {}, auditTrail: true, maskPersonalData });
          expect(started.maskPersonalData).toBe(maskPersonalData);
          expect(await runNext()).toBe('done');
          const done = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
          const body = (await call('dm', 'GET', `/${started.id}/download`)).body;
          const itemData = body.match(/<ItemData[\s>]/g)?.length ?? 0;
          expect([done.valuesTotal, done.valuesDone], `${format} masked ${maskPersonalData}`).toEqual([
            itemData,
            itemData,
          ]);
          const file = path.join(workDir, `masked-${maskPersonalData}.xml`);
          fs.writeFileSync(file, body);
          expect(validateOdmFile(file, format === 'odm-2.0' ? '2.0' : '1.3.2')).toMatchObject({ status: 0 });
          files[String(maskPersonalData)] = body;
          const audit = await auditOf(started.id);
          expect(
            audit.map((event) => [
              event.event_type,
              (event.after as { maskPersonalData?: boolean }).maskPersonalData,
            ]),
          ).toEqual([
            ['data_export.started', maskPersonalData],
            ['data_export.finished', maskPersonalData],
            ['data_export.downloaded', maskPersonalData],
          ]);
          expect(audit[1]?.after).toMatchObject({ values: itemData });
        }
        expect(files.false?.includes(initials), format).toBe(true);
        expect(files.false?.includes(birthDate), format).toBe(true);
        expect(holdsPersonal(files.true ?? ''), format).toBe(false);
        // The items are still described (the metadata), only their data are left out.
        expect(files.true?.includes('<ItemDef OID="I.demographicInfo.birthDate"'), format).toBe(true);
      }

      const unmaskedTotal = await countFormTableValues(db, { studyId });
      const maskedTotal = await countFormTableValues(db, { studyId }, { maskPersonalData: true });
      expect(maskedTotal).toBeLessThan(unmaskedTotal);
      for (const format of ['tables-csv', 'tables-xlsx'] as const) {
        for (const maskPersonalData of [false, true]) {
          const started = await start({
            format,
            scope: {},
            auditTrail: false,
            labels: 'en',
            maskPersonalData,
          });
          expect(await runNext()).toBe('done');
          const done = (await call('dm', 'GET', `/${started.id}`)).json() as DataExport;
          const total = maskPersonalData ? maskedTotal : unmaskedTotal;
          expect(done, `${format} masked ${maskPersonalData}`).toMatchObject({
            maskPersonalData,
            valuesTotal: total,
            valuesDone: total,
          });
          const parts = unzipSync(
            new Uint8Array((await call('dm', 'GET', `/${started.id}/download`)).rawPayload),
          );
          const texts = Object.fromEntries(
            Object.entries(parts).map(([name, data]) => [name, new TextDecoder().decode(data)]),
          );
          const everything = Object.values(texts).join('\n');
          expect(holdsPersonal(everything), `${format} masked ${maskPersonalData}`).toBe(!maskPersonalData);
          if (format !== 'tables-csv') continue;
          // The columns stay, blank; the codebook says which were masked and why.
          const lines = (texts['demographicInfo.csv'] ?? '').slice(1).split('\r\n');
          const header = lines[0]?.split(',') ?? [];
          const row = lines.find((line) => line.startsWith(`${subject.subjectId},`))?.split(',') ?? [];
          expect(header).toContain('birthDate');
          expect(row[header.indexOf('birthDate')]).toBe(maskPersonalData ? '' : birthDate);
          expect(row[header.indexOf('gender')]).toBe('M');
          const codebook = (texts['codebook.csv'] ?? '').split('\r\n');
          expect(codebook[0]?.endsWith(',masked')).toBe(maskPersonalData);
          const masked = codebook.filter((line) => line.includes('personal data: values withheld'));
          expect(masked.map((line) => line.split(',').slice(0, 2).join(','))).toEqual(
            maskPersonalData ? ['consentScreening,initials', 'demographicInfo,birthDate'] : [],
          );
        }
      }
    });
  },
  { seed: 'living-demo' },
);
