import type { AuditTrailRow } from '@cdms/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { auditChainStatus } from './audit-chain-status.ts';

/**
 * Issue 16's audit review through the API, over records written by real commands (subjects created,
 * forms saved and corrected with reasons, a query opened): each filter against what the whole trail
 * says, paging and order, the CRA's sites against the DM's study, site roles refused, bad filters,
 * the CSV, and the chain's status before and after a record is tampered with.
 */
describeWithDatabase(
  'audit review API',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site3: number;
    let subjectAtSite1: number;
    let subjectAtSite3: number;
    const session: Record<string, SignedIn> = {};
    const correctionReason = `checked against the source ${Date.now()}`;
    const formulaReason = '=HYPERLINK("http://evil.example")';
    const as = (
      who: string,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
      language = 'en',
    ) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': language },
        ...(payload ? { payload } : {}),
      });
    const auditUrl = (query = '') => `/api/studies/${studyId}/audit${query}`;
    const formUrl = (subjectPk: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectPk}/forms/${visit}/${form}`;

    async function newSubject(who: string, siteId: number): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials: 'AUD',
      });
      expect(created.statusCode).toBe(201);
      return created.json().id;
    }

    /** Every record the reader sees, walking the pages (newest first). */
    async function wholeTrail(who: string, query = ''): Promise<AuditTrailRow[]> {
      const rows: AuditTrailRow[] = [];
      for (let page = 1; ; page += 1) {
        const response = await as(who, 'GET', auditUrl(`?size=100&page=${page}${query}`));
        expect(response.statusCode).toBe(200);
        const body = response.json();
        rows.push(...body.records);
        if (body.records.length < 100) {
          expect(body.total).toBe(rows.length);
          return rows;
        }
      }
    }

    const idsOf = (rows: AuditTrailRow[]) => rows.map((row) => row.id);

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'crc3', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site3 = demo.siteId('03');

      subjectAtSite1 = await newSubject('pi', site1);
      const vitals = { bloodPressureSystolic: 120, bloodPressureDiastolic: 80, heartRate: 70 };
      expect(
        (await as('pi', 'PUT', formUrl(subjectAtSite1, 'v1', 'vitalSigns'), { values: vitals, version: 0 }))
          .statusCode,
      ).toBe(200);
      const corrected = await as('pi', 'PUT', formUrl(subjectAtSite1, 'v1', 'vitalSigns'), {
        values: { ...vitals, heartRate: 75, bloodPressureSystolic: 121 },
        version: 1,
        reasons: { heartRate: correctionReason, bloodPressureSystolic: formulaReason },
      });
      expect(corrected.statusCode).toBe(200);
      const query = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
        subjectPk: subjectAtSite1,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: 'heartRate',
        text: 'Please confirm the heart rate',
      });
      expect(query.statusCode).toBe(201);

      subjectAtSite3 = await newSubject('crc3', site3);
      expect(
        (await as('crc3', 'PUT', formUrl(subjectAtSite3, 'v1', 'vitalSigns'), { values: vitals, version: 0 }))
          .statusCode,
      ).toBe(200);
    });
    afterAll(async () => {
      await app.close();
    });

    it('filters by subject, event type, user, role, site, visit, form, item and text exactly', async () => {
      const all = await wholeTrail('dm');
      expect(all.length).toBeGreaterThan(10);
      // Newest first by default.
      expect(idsOf(all)).toEqual([...idsOf(all)].sort((a, b) => b - a));

      const cases: [string, (row: AuditTrailRow) => boolean][] = [
        [`&subjectId=${subjectAtSite1}`, (row) => row.subjectId === subjectAtSite1],
        ['&eventType=data.item_changed', (row) => row.eventType === 'data.item_changed'],
        ['&eventType=query.opened', (row) => row.eventType === 'query.opened'],
        [`&userId=${session.pi?.userId}`, (row) => row.userId === session.pi?.userId],
        ['&role=CRA', (row) => (row.role ?? '').split(',').includes('CRA')],
        [`&siteId=${site3}`, (row) => row.siteId === site3],
        ['&visitKey=v1&formKey=vitalSigns', (row) => row.visitKey === 'v1' && row.formKey === 'vitalSigns'],
        ['&itemKey=heartRate', (row) => row.itemKey === 'heartRate'],
      ];
      for (const [query, keep] of cases) {
        const expected = all.filter(keep);
        expect(expected.length, query).toBeGreaterThan(0);
        expect(idsOf(await wholeTrail('dm', query)), query).toEqual(idsOf(expected));
      }

      // A subject and an event type together: the two item changes of the correction and the three first saves.
      const changes = await wholeTrail(
        'dm',
        `&subjectId=${subjectAtSite1}&eventType=data.item_changed&itemKey=heartRate`,
      );
      expect(changes.map((row) => [row.before, row.after, row.reason])).toEqual([
        ['70', '75', correctionReason],
        // The first save: no value before.
        ['—', '70', null],
      ]);
      expect(changes[0]).toMatchObject({
        screeningNumber: expect.any(String),
        siteCode: 'HBU-1Y',
        userName: '김연구',
        role: 'PI',
        visitKey: 'v1',
        formKey: 'vitalSigns',
        eventLabel: { ko: '데이터 변경', en: 'Data changed' },
      });
      // In words (issue 43 item 7): the labels of the published definition, the change value by value,
      // read for this page of rows; the stored record stays in target/before/after.
      expect(changes[0]?.visitLabel?.en).toMatch(/V1/);
      expect(changes[0]?.formLabel).toEqual({ ko: '활력 징후', en: 'Vital signs' });
      expect(changes[0]?.itemLabel?.en).toBe('Pulse rate');
      expect(changes.map((row) => row.changes)).toEqual([
        [{ field: null, before: { ko: '70 bpm', en: '70 bpm' }, after: { ko: '75 bpm', en: '75 bpm' } }],
        [{ field: null, before: null, after: { ko: '70 bpm', en: '70 bpm' } }],
      ]);

      const byText = await wholeTrail('dm', `&text=${encodeURIComponent(correctionReason.toUpperCase())}`);
      expect(byText.map((row) => row.reason)).toEqual([correctionReason]);
      // `%` and `_` are plain characters, not wildcards.
      expect(await wholeTrail('dm', `&text=${encodeURIComponent('_%_')}`)).toEqual([]);
    });

    it('filters by day in UTC+9, sorts oldest first and pages with a count', async () => {
      const all = await wholeTrail('dm');
      const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
      expect(idsOf(await wholeTrail('dm', `&from=${today}&to=${today}`))).toEqual(idsOf(all));
      expect(await wholeTrail('dm', '&to=2000-01-01')).toEqual([]);
      expect(await wholeTrail('dm', '&from=2999-01-01')).toEqual([]);

      const oldest = await wholeTrail('dm', '&sort=oldest');
      expect(idsOf(oldest)).toEqual(idsOf(all).reverse());

      const second = await as('dm', 'GET', auditUrl('?size=20&page=2'));
      expect(second.json()).toMatchObject({ total: all.length, page: 2, size: 20 });
      expect(idsOf(second.json().records)).toEqual(idsOf(all.slice(20, 40)));
    });

    it('shows a CRA the sites they monitor and the records without a site; DM and ADMIN the whole study', async () => {
      const all = await wholeTrail('dm');
      expect(idsOf(await wholeTrail('admin'))).toEqual(idsOf(all));
      const monitored = (await as('cra', 'GET', auditUrl()))
        .json()
        .sites.map((site: { id: number }) => site.id);
      expect(monitored).not.toContain(site3);
      const cra = await wholeTrail('cra');
      expect(idsOf(cra)).toEqual(
        idsOf(all.filter((row) => row.siteId === null || monitored.includes(row.siteId))),
      );
      expect(cra.some((row) => row.subjectId === subjectAtSite3)).toBe(false);
      expect(all.some((row) => row.subjectId === subjectAtSite3)).toBe(true);
      // A site outside the CRA's scope cannot be asked for.
      expect((await as('cra', 'GET', auditUrl(`?siteId=${site3}`))).statusCode).toBe(404);
    });

    it('refuses the site roles (403) and answers bad filters with a 400 in the reader language', async () => {
      for (const who of ['pi', 'crc']) {
        for (const path of ['', '.csv', '/chain'])
          expect(
            (await as(who, 'GET', `/api/studies/${studyId}/audit${path}`)).statusCode,
            `${who} ${path}`,
          ).toBe(403);
      }
      const bad = [
        '?from=2026-02-30',
        '?to=yesterday',
        '?size=7',
        '?page=0',
        '?role=KING',
        '?eventType=DROP%20TABLE',
        '?userId=-1',
        `?text=${'x'.repeat(101)}`,
        '?sort=sideways',
        '?text=%00',
      ];
      for (const query of bad) {
        const english = await as('dm', 'GET', auditUrl(query));
        expect(english.statusCode, query).toBe(400);
        const korean = await as('dm', 'GET', auditUrl(query), undefined, 'ko');
        expect(korean.statusCode, query).toBe(400);
        expect(korean.json().error.message).not.toBe(english.json().error.message);
      }
      expect((await as('dm', 'GET', `/api/studies/${studyId}/audit.csv?from=2026-13-01`)).statusCode).toBe(
        400,
      );
    });

    it('downloads the filtered trail as CSV with a BOM, neutralized formulas, audited as an export', async () => {
      const expected = await wholeTrail('dm', `&subjectId=${subjectAtSite1}`);
      const response = await as('dm', 'GET', `/api/studies/${studyId}/audit.csv?subjectId=${subjectAtSite1}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toContain('TMP-2026_audit_');
      const text = response.body;
      expect(text.startsWith('\uFEFFRecord,Time (UTC+9),User,')).toBe(true);
      const lines = text.slice(1).trimEnd().split('\r\n');
      expect(lines.length).toBe(expected.length + 1);
      expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(idsOf(expected));
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
      expect(text).not.toContain(',=HYPERLINK');
      // The CSV says the change in words too, and names the item by its label.
      expect(text).toContain('70 bpm → 75 bpm');
      expect(text).toContain('Pulse rate');

      const exported = await wholeTrail('dm', '&eventType=audit.exported');
      expect(exported[0]).toMatchObject({ userName: '정데이', role: 'DM' });
      expect(exported[0]?.after).toContain(`rowCount: ${expected.length}`);
    });

    it('reports the chain intact up to the last record, then where a tampered record breaks it', async () => {
      const response = await as('dm', 'GET', `/api/studies/${studyId}/audit/chain`);
      expect(response.statusCode).toBe(200);
      const db = database().db;
      const last = await db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.max('id').as('last'))
        .executeTakeFirstOrThrow();
      const fresh = await auditChainStatus(db, { maxAgeMs: 0 });
      expect(fresh).toMatchObject({
        state: 'intact',
        checkedUpTo: Number(last.last),
        firstBreakId: null,
        breakCount: 0,
      });
      expect(response.json().state).toBe('intact');

      const [target] = await wholeTrail('dm', `&subjectId=${subjectAtSite3}&eventType=data.item_changed`);
      if (!target) throw new Error('no record to tamper with');
      await sql`alter table audit_events disable trigger audit_events_append_only`.execute(db);
      await sql`update audit_events set reason = 'edited afterwards' where id = ${target.id}`.execute(db);
      await sql`alter table audit_events enable trigger audit_events_append_only`.execute(db);

      expect(await auditChainStatus(db, { maxAgeMs: 0 })).toMatchObject({
        state: 'broken',
        checkedUpTo: target.id - 1,
        firstBreakId: target.id,
        problem: 'hash_mismatch',
        breakCount: 1,
      });
    });
  },
  { seed: 'demo' },
);
