import fs from 'node:fs';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { exportOdm } from '../odm/export-odm.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';

/**
 * Issue 45 items 7 and 8: two studies on one installation keep their data apart — subject lists,
 * counts, queries, exports, the audit trail — and a designer of one cannot touch the other. The
 * living demo's TMP-2026 (31 subjects) beside a new study created, designed and taken live through
 * the API, with one subject.
 */
describeWithDatabase(
  'two studies side by side',
  (database) => {
    let app: App;
    let admin: SignedIn;
    let dm: SignedIn;
    let crc: SignedIn;
    let tmpId: number;
    let newId: number;
    const get = (who: SignedIn, url: string) =>
      app.inject({ method: 'GET', url, headers: { ...who.headers, 'accept-language': 'en' } });
    const send = (who: SignedIn, method: 'POST' | 'PUT', url: string, payload: unknown) =>
      app.inject({
        method,
        url,
        headers: { ...who.headers, 'accept-language': 'en' },
        payload: payload as object,
      });
    const tmDocument = () =>
      JSON.parse(fs.readFileSync(definitionDocumentPath(TM_PERFORATION_DOCUMENT), 'utf8')) as unknown;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
      const study = await database()
        .db.selectFrom('studies')
        .select('id')
        .where('code', '=', 'TMP-2026')
        .executeTakeFirstOrThrow();
      tmpId = study.id;

      const created = await send(admin, 'POST', '/api/admin/studies', {
        code: 'SIDE-2027',
        protocolNumber: '',
        titleKo: '나란히 운영되는 두 번째 임상시험',
        titleEn: '',
        sponsor: '',
        kind: 'device',
        content: '',
      });
      newId = created.json().id;
      const site = await send(admin, 'POST', `/api/admin/studies/${newId}/sites`, {
        code: 'SIDE-01',
        name: '한빛대학교병원',
        institutionNumber: '01',
      });
      const users = (await get(admin, '/api/admin/users')).json().users as { id: number; email: string }[];
      const crcUser = users.find((user) => user.email === 'crc@demo.cdms');
      await send(admin, 'POST', `/api/admin/studies/${newId}/memberships`, {
        userId: crcUser?.id,
        role: 'CRC',
        siteIds: [site.json().id],
      });
      expect((await send(admin, 'PUT', `/api/studies/${newId}/definition`, tmDocument())).statusCode).toBe(
        200,
      );
      expect(
        (await send(admin, 'POST', `/api/studies/${newId}/go-live`, { password: DEMO_PASSWORD })).statusCode,
      ).toBe(200);
      crc = await signIn(app, 'crc@demo.cdms');
      dm = await signIn(app, 'dm@demo.cdms');
      const subject = await send(crc, 'POST', `/api/studies/${newId}/subjects`, {
        siteId: site.json().id,
        initials: 'SBS',
        consentDate: '2026-12-01',
      });
      expect(subject.statusCode).toBe(201);
    });
    afterAll(async () => {
      await app.close();
    });

    it('counts and lists each study on its own', async () => {
      const newList = (await get(admin, `/api/studies/${newId}/subjects`)).json();
      expect(newList.total).toBe(1);
      expect(newList.subjects.map((s: { subjectId: string }) => s.subjectId)).toEqual(['S01-001']);
      const tmpList = (await get(admin, `/api/studies/${tmpId}/subjects`)).json();
      expect(tmpList.total).toBe(31);
      expect(tmpList.subjects.some((s: { initials: string }) => s.initials === 'SBS')).toBe(false);

      const newDashboard = (await get(admin, `/api/studies/${newId}/dashboard`)).json();
      expect(newDashboard.subjects.total).toBe(1);
      expect(newDashboard.queries).toEqual({
        system: { open: 0, answered: 0 },
        manual: { open: 0, answered: 0 },
      });
      expect((await get(admin, `/api/studies/${tmpId}/dashboard`)).json().subjects.total).toBe(31);
    });

    it('keeps queries, exports and the audit trail apart', async () => {
      const newQueries = (await get(admin, `/api/studies/${newId}/queries`)).json();
      expect(newQueries.total).toBe(0);
      expect((await get(admin, `/api/studies/${tmpId}/queries`)).json().total).toBeGreaterThan(0);

      const exported = await exportOdm(database().db, { studyId: newId, version: '1.3.2', audit: true });
      let text = '';
      for await (const chunk of exported.chunks) text += chunk;
      expect(exported.counts.subjects).toBe(1);
      expect(text).toContain('SIDE-2027');
      expect(text).not.toContain('TMP-2026');

      const audit = (await get(admin, `/api/studies/${newId}/audit?pageSize=100`)).json();
      const types = new Set((audit.records as { eventType: string }[]).map((record) => record.eventType));
      expect(types).toContain('study.went_live');
      expect(types).toContain('subject.created');
      const tmpAudit = (await get(admin, `/api/studies/${tmpId}/audit?pageSize=100`)).json();
      expect(
        (tmpAudit.records as { screeningNumber: string | null; eventType: string }[]).some(
          (record) => record.eventType === 'study.went_live',
        ),
      ).toBe(false);
    });

    it("refuses a designer of one study the other study's design", async () => {
      // The demo DM designs TMP-2026 but is no member of SIDE-2027: it does not exist for them.
      expect((await send(dm, 'PUT', `/api/studies/${newId}/definition`, tmDocument())).statusCode).toBe(404);
      expect((await get(dm, `/api/studies/${newId}/definition`)).statusCode).toBe(404);
      expect((await get(dm, `/api/studies/${newId}/subjects`)).statusCode).toBe(404);
    });

    it('answers a deeply nested document with a 400 and stays up', async () => {
      let nested: unknown = 'leaf';
      for (let depth = 0; depth < 200; depth++) nested = { nested };
      const response = await send(admin, 'PUT', `/api/studies/${newId}/definition`, nested);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('body_too_deep');
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });
  },
  { seed: 'living-demo' },
);
