import { type DatedLabRange, flagLabResult, type LabResultRow, rangesInForceOn } from '@cdms/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { LAB_OUT_OF_RANGE_CHECK } from '../lab-range-rules/lab-range-checks.ts';

describeWithDatabase(
  'lab normal ranges',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const range = (overrides: Record<string, unknown> = {}) => ({
      siteId: site1,
      testKey: 'wbc',
      unit: '10³/µL',
      low: 4,
      high: 10,
      sex: null,
      ageMin: null,
      ageMax: null,
      effectiveFrom: '2025-01-01',
      ...overrides,
    });

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
    });
    afterAll(async () => {
      await app.close();
    });

    describe('keeping ranges', () => {
      it('lets DM and ADMIN add, change and retire ranges, audited; others only read', async () => {
        expect((await as('pi', 'POST', `/api/studies/${studyId}/lab-ranges`, range())).statusCode).toBe(403);
        expect((await as('cra', 'POST', `/api/studies/${studyId}/lab-ranges`, range())).statusCode).toBe(403);
        const created = await as(
          'dm',
          'POST',
          `/api/studies/${studyId}/lab-ranges`,
          range({ testKey: 'rbc' }),
        );
        expect(created.statusCode, created.body).toBe(201);
        const id = created.json().id;
        const changed = await as(
          'admin',
          'PUT',
          `/api/studies/${studyId}/lab-ranges/${id}`,
          range({ testKey: 'rbc', high: 5.5 }),
        );
        expect(changed.statusCode, changed.body).toBe(200);
        expect(changed.json()).toMatchObject({
          testKey: 'rbc',
          low: 4,
          high: 5.5,
          retired: false,
          siteId: site1,
        });
        const retired = await as('dm', 'POST', `/api/studies/${studyId}/lab-ranges/${id}/retire`);
        expect(retired.json().retired).toBe(true);
        expect((await as('dm', 'POST', `/api/studies/${studyId}/lab-ranges/${id}/retire`)).statusCode).toBe(
          409,
        );
        expect((await as('dm', 'PUT', `/api/studies/${studyId}/lab-ranges/${id}`, range())).statusCode).toBe(
          409,
        );

        const audit = await database()
          .db.selectFrom('audit_events')
          .select(['event_type', 'before', 'after'])
          .where('entity_type', '=', 'lab_range')
          .where('entity_id', '=', String(id))
          .orderBy('id')
          .execute();
        expect(audit.map((row) => row.event_type)).toEqual([
          'lab_range.created',
          'lab_range.updated',
          'lab_range.retired',
        ]);
        expect(audit[1]?.before).toMatchObject({ high: 10 });
        expect(audit[1]?.after).toMatchObject({ high: 5.5 });
        expect(audit[2]?.after).toMatchObject({ retired: true });

        // Retired ranges are listed only when asked for.
        const current = (await as('pi', 'GET', `/api/studies/${studyId}/lab-ranges`)).json();
        expect(current.ranges.some((r: { id: number }) => r.id === id)).toBe(false);
        expect(current.canManage).toBe(false);
        const all = (await as('dm', 'GET', `/api/studies/${studyId}/lab-ranges?retired=true`)).json();
        expect(all.ranges.some((r: { id: number }) => r.id === id)).toBe(true);
        expect(all.canManage).toBe(true);
      });

      it('refuses a test the form does not have, and a range without limits or reversed', async () => {
        const post = (body: object) => as('dm', 'POST', `/api/studies/${studyId}/lab-ranges`, body);
        expect((await post(range({ testKey: 'urineRbc' }))).json().error.code).toBe('unknown_lab_test');
        expect((await post(range({ low: null, high: null }))).json().error.code).toBe('lab_range_invalid');
        expect((await post(range({ low: 11, high: 10 }))).json().error.code).toBe('lab_range_invalid');
        expect((await post(range({ ageMin: 60, ageMax: 20 }))).json().error.code).toBe('lab_range_invalid');
        expect((await post(range({ effectiveFrom: '2025-02-30' }))).statusCode).toBe(400);
      });

      it('shows site staff only the ranges of their own sites', async () => {
        await as(
          'dm',
          'POST',
          `/api/studies/${studyId}/lab-ranges`,
          range({ siteId: site2, testKey: 'platelet', low: 150, high: 400 }),
        );
        const crc = (await as('crc', 'GET', `/api/studies/${studyId}/lab-ranges`)).json();
        expect(crc.ranges.length).toBeGreaterThan(0);
        expect(crc.ranges.every((r: { siteId: number }) => r.siteId === site2)).toBe(true);
        const pi = (await as('pi', 'GET', `/api/studies/${studyId}/lab-ranges`)).json();
        expect(pi.ranges.every((r: { siteId: number }) => r.siteId !== site2)).toBe(true);
      });
    });

    describe('flags on the labTest form', () => {
      let subjectId: number;
      let version = 0;
      const formUrl = () => `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/labTest`;
      const saveLab = async (values: Record<string, unknown>, reasons: Record<string, string> = {}) => {
        const response = await as('pi', 'PUT', formUrl(), { values, version, reasons });
        expect(response.statusCode, response.body).toBe(200);
        version = response.json().version;
        return response.json();
      };
      const outOfRangeQueries = async () =>
        database()
          .db.selectFrom('queries')
          .select(['item_path', 'status'])
          .where('subject_id', '=', subjectId)
          .where('check_id', '=', LAB_OUT_OF_RANGE_CHECK)
          .orderBy('id')
          .execute();

      beforeAll(async () => {
        // In force from 2025-01-01 (wbc 4–10) and a newer one for hemoglobin that starts after the specimen.
        await as('dm', 'POST', `/api/studies/${studyId}/lab-ranges`, range());
        await as(
          'dm',
          'POST',
          `/api/studies/${studyId}/lab-ranges`,
          range({ testKey: 'hemoglobin', low: 12, high: 16, unit: 'g/dL' }),
        );
        await as(
          'dm',
          'POST',
          `/api/studies/${studyId}/lab-ranges`,
          range({ testKey: 'hemoglobin', low: 13, high: 17, unit: 'g/dL', effectiveFrom: '2025-06-01' }),
        );
        const subject = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site1,
          consentDate: '2025-03-03',
          initials: 'LAB',
        });
        subjectId = subject.json().id;
      });

      it("the form read carries the site's ranges with their dates; the one in force on the specimen date flags", async () => {
        await saveLab({ specimenDate: '2025-03-03', wbcResult: 10, hemoglobinResult: 12 });
        const form = (await as('pi', 'GET', formUrl())).json();
        const ranges = form.labRanges as DatedLabRange[];
        expect(ranges.filter((r) => r.testKey === 'wbc')).toEqual([
          expect.objectContaining({ unit: '10³/µL', low: 4, high: 10, effectiveFrom: '2025-01-01' }),
        ]);
        // Both hemoglobin ranges: the browser picks by the specimen date as it is typed.
        expect(
          ranges
            .filter((r) => r.testKey === 'hemoglobin')
            .map((r) => [r.effectiveFrom, r.low])
            .sort(),
        ).toEqual([
          ['2025-01-01', 12],
          ['2025-06-01', 13],
        ]);
        // The June range is not yet in force on 2025-03-03, and is from 2025-06-01.
        expect(rangesInForceOn(ranges, '2025-03-03').get('hemoglobin')).toMatchObject({ low: 12, high: 16 });
        expect(rangesInForceOn(ranges, '2025-06-01').get('hemoglobin')).toMatchObject({ low: 13, high: 17 });
        // At the limits: normal, no query.
        expect(await outOfRangeQueries()).toEqual([]);
      });

      it('raises a query for a result outside the range without NCS/CS, closed once judged', async () => {
        await saveLab(
          { specimenDate: '2025-03-03', wbcResult: 10.01, hemoglobinResult: 11.99 },
          { wbcResult: 'retyped', hemoglobinResult: 'retyped' },
        );
        expect(await outOfRangeQueries()).toEqual(
          expect.arrayContaining([
            { item_path: 'v1.labTest.hemoglobinResult', status: 'open' },
            { item_path: 'v1.labTest.wbcResult', status: 'open' },
          ]),
        );
        expect(await outOfRangeQueries()).toHaveLength(2);
        await saveLab(
          {
            specimenDate: '2025-03-03',
            wbcResult: 10.01,
            hemoglobinResult: 11.99,
            wbcNormal: 'abnormal',
            wbcSignificance: 'CS',
          },
          {},
        );
        const after = await outOfRangeQueries();
        expect(after.find((q) => q.item_path === 'v1.labTest.wbcResult')?.status).toBe('closed');
        expect(after.find((q) => q.item_path === 'v1.labTest.hemoglobinResult')?.status).toBe('open');
      });

      it('lists out-of-range and clinically significant results, counted in SQL', async () => {
        const list = async (query: string) =>
          (await as('dm', 'GET', `/api/studies/${studyId}/lab-results?${query}`)).json();
        // What this test saved: wbc 10.01 (H, CS) and hemoglobin 11.99 (L) on one subject.
        const saved = [
          { testKey: 'wbc', value: 10.01, range: { low: 4, high: 10 }, significance: 'CS' },
          { testKey: 'hemoglobin', value: 11.99, range: { low: 12, high: 16 }, significance: null },
        ].map((r) => ({ ...r, flag: flagLabResult(r.value, r.range) }));
        const mine = (rows: LabResultRow[]) => rows.filter((row) => row.subjectPk === subjectId);
        const all = await list(`subject=${encodeURIComponent('')}&size=100`);
        expect(mine(all.results).map((r) => [r.testKey, r.flag])).toEqual(
          saved.map((r) => [r.testKey, r.flag]),
        );
        for (const flag of ['H', 'L', 'CS'] as const) {
          const expected = saved.filter((r) =>
            flag === 'CS' ? r.significance === 'CS' : r.flag === flag,
          ).length;
          const page = await list(`flag=${flag}&size=100`);
          expect(mine(page.results)).toHaveLength(expected);
          expect(page.total).toBe(page.results.length);
        }
        const hemoglobin = mine((await list('testKey=hemoglobin&size=100')).results);
        expect(hemoglobin).toEqual([
          expect.objectContaining({ value: 11.99, low: 12, high: 16, flag: 'L', openQueryCount: 1 }),
        ]);
        // The CRC works at another site: the subject is not theirs.
        expect(
          mine(
            (await (await as('crc', 'GET', `/api/studies/${studyId}/lab-results?size=100`)).json()).results,
          ),
        ).toEqual([]);
        // Paging: one row per page, the total unchanged.
        const first = await list('size=10&page=1');
        expect(first.total).toBe(all.total);
      });

      it("downloads the listing under its filters as CSV and XLSX, audited, within the reader's sites", async () => {
        const download = (who: string, query: string) =>
          as(who, 'GET', `/api/studies/${studyId}/lab-results/download?${query}`);
        const listed = (await (await as('dm', 'GET', `/api/studies/${studyId}/lab-results?size=100`)).json())
          .results as LabResultRow[];
        const csv = await download('dm', 'format=csv');
        expect(csv.statusCode, csv.body).toBe(200);
        expect(csv.headers['content-type']).toContain('text/csv');
        expect(csv.headers['content-disposition']).toContain('lab_results');
        const lines = csv.body
          .replace(/^\uFEFF/, '')
          .trimEnd()
          .split('\r\n');
        expect(lines[0]).toBe(
          'Site,Screening number,Visit,Specimen date,Test,Result,Unit,Low,High,Flag,Normal/abnormal,Clinical significance,Unresolved queries',
        );
        // Every listed row once, in the listing's order.
        expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(
          listed.map((row) => `${row.site},${row.subjectId}`),
        );
        const mine = listed.filter((row) => row.subjectPk === subjectId);
        const screeningNumber = mine[0]?.subjectId as string;
        const hemoglobinLine = lines.find(
          (line) => line.includes(screeningNumber) && line.includes('Hemoglobin'),
        );
        expect(hemoglobinLine).toContain(',11.99,g/dL,12,16,L (low),');
        // The filters of the page apply.
        const onlyHigh = (await download('dm', 'format=csv&flag=H')).body.trimEnd().split('\r\n');
        expect(onlyHigh).toHaveLength(1 + listed.filter((row) => row.flag === 'H').length);
        // XLSX: a workbook (a zip).
        const xlsx = await download('dm', 'format=xlsx&testKey=hemoglobin');
        expect(xlsx.statusCode).toBe(200);
        expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
        // The CRC of another site downloads nothing of this subject.
        const theirs = await download('crc', 'format=csv');
        expect(theirs.statusCode).toBe(200);
        expect(theirs.body).not.toContain(screeningNumber);
        // Audited with the format and the filters.
        const audited = await database()
          .db.selectFrom('audit_events')
          .select(['after'])
          .where('event_type', '=', 'lab_results.exported')
          .orderBy('id')
          .execute();
        expect(audited.map((row) => row.after)).toEqual(
          expect.arrayContaining([
            { format: 'csv', filter: { flag: 'H' } },
            { format: 'xlsx', filter: { flag: 'all', testKey: 'hemoglobin' } },
          ]),
        );
        // A format that does not exist is a 400 in the error shape.
        const bad = await download('dm', 'format=pdf');
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.code).toBeDefined();
      });
    });
  },
  { seed: 'demo' },
);
