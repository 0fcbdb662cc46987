import fs from 'node:fs';
import { STUDY_DEFINITION_JSON_SCHEMA, TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';

/** TMP-2026's document as a designer would upload it: the text of the file in the repository. */
const tmDocument = () =>
  JSON.parse(fs.readFileSync(definitionDocumentPath(TM_PERFORATION_DOCUMENT), 'utf8')) as Record<
    string,
    unknown
  >;

describeWithDatabase(
  'study design: create, upload a definition, go live',
  (database) => {
    let app: App;
    let admin: SignedIn;
    let dm: SignedIn;
    let crc: SignedIn;
    let studyId: number;
    let siteId: number;

    const call = (
      who: SignedIn,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: unknown,
      language: 'ko' | 'en' = 'en',
    ) =>
      app.inject({
        method,
        url,
        headers: { ...who.headers, 'accept-language': language },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
      dm = await signIn(app, 'dm@demo.cdms');
      crc = await signIn(app, 'crc@demo.cdms');
    });
    afterAll(async () => {
      await app.close();
    });

    it('creates a study in design, its creator its first ADMIN, audited', async () => {
      const created = await call(admin, 'POST', '/api/admin/studies', {
        code: 'HEAR-2027',
        protocolNumber: 'CDMS-HEAR-01',
        titleKo: '만성 중이염 수술 후 청력 추적 관찰 연구',
        titleEn: 'Hearing follow-up after chronic otitis media surgery',
        sponsor: '한빛대학교병원',
        kind: 'observational',
        content: '수술 후 12개월 동안의 청력 변화를 관찰합니다.',
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        code: 'HEAR-2027',
        status: 'design',
        kind: 'observational',
        hasDefinition: false,
        sites: [],
      });
      studyId = created.json().id;
      const duplicate = await call(admin, 'POST', '/api/admin/studies', {
        ...{ code: 'hear-2027', protocolNumber: '', titleKo: 'x', titleEn: '', sponsor: '', kind: 'drug' },
        content: '',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().error.code).toBe('study_code_taken');

      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type'])
        .where('study_id', '=', studyId)
        .orderBy('id')
        .execute();
      expect(audit.map((row) => row.event_type)).toEqual(['study.created', 'membership.created']);

      // In design the study is the designers' alone: the admin sees it in the work list, a DM only
      // once a member, site staff not even then.
      const adminList = await call(admin, 'GET', '/api/studies?status=active');
      expect(adminList.json().studies.map((s: { code: string }) => s.code)).toContain('HEAR-2027');
      expect((await call(dm, 'GET', `/api/studies/${studyId}/definition`)).statusCode).toBe(404);
    });

    it('lets its designers upload a definition: an invalid one lists every problem, in ko and en', async () => {
      const site = await call(admin, 'POST', `/api/admin/studies/${studyId}/sites`, {
        code: 'HBU-H',
        name: '한빛대학교병원',
        institutionNumber: '01',
      });
      siteId = site.json().id;
      const users = (await call(admin, 'GET', '/api/admin/users')).json().users as {
        id: number;
        email: string;
      }[];
      const userId = (email: string) => users.find((user) => user.email === email)?.id;
      for (const [email, role, siteIds] of [
        ['dm@demo.cdms', 'DM', []],
        ['crc@demo.cdms', 'CRC', [siteId]],
      ] as const) {
        const membership = await call(admin, 'POST', `/api/admin/studies/${studyId}/memberships`, {
          userId: userId(email),
          role,
          siteIds,
        });
        expect(membership.statusCode).toBe(201);
      }
      dm = await signIn(app, 'dm@demo.cdms');
      crc = await signIn(app, 'crc@demo.cdms');
      // The CRC is a member, but the study is in design: it does not exist for them yet.
      expect((await call(crc, 'GET', `/api/studies/${studyId}/definition`)).statusCode).toBe(404);
      expect((await call(crc, 'PUT', `/api/studies/${studyId}/definition`, tmDocument())).statusCode).toBe(
        404,
      );

      const broken = tmDocument();
      broken.visits = 'every week';
      const [firstForm] = broken.forms as { key: string; colour?: string }[];
      if (firstForm) firstForm.colour = 'blue';
      broken.version = 'one';
      const refused = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, broken);
      expect(refused.statusCode).toBe(422);
      const error = refused.json().error;
      expect(error.code).toBe('invalid_definition');
      expect(error.details.problems).toEqual(
        expect.arrayContaining([
          { path: '/version', message: 'Does not match the pattern /^\\d+\\.\\d+\\.\\d+$/.' },
          { path: '/visits', message: 'Wrong type: array expected.' },
          { path: '/forms/0', message: 'Unknown properties: "colour"' },
        ]),
      );
      const korean = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, broken, 'ko');
      expect(korean.json().error.details.problems).toContainEqual({
        path: '/forms/0',
        message: '알 수 없는 속성입니다: "colour"',
      });
      // A document of the right shape whose references do not resolve: the cross-checks, in both languages.
      const dangling = tmDocument();
      (dangling.visits as { key: string; forms: string[] }[])[1]?.forms.push('noSuchForm');
      const crossChecked = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, dangling, 'ko');
      expect(crossChecked.json().error.details.problems).toEqual([
        { path: '', message: '방문 v1: 알 수 없는 양식 noSuchForm' },
      ]);
      const inEnglish = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, dangling);
      expect(inEnglish.json().error.details.problems).toEqual([
        { path: '', message: 'visit v1: unknown form noSuchForm' },
      ]);
      // Nothing was written.
      expect((await call(dm, 'GET', `/api/studies/${studyId}/definition`)).statusCode).toBe(404);

      const accepted = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, tmDocument());
      expect(accepted.statusCode).toBe(200);
      const { version, contentHash } = accepted.json();
      expect(contentHash).toMatch(/^[0-9a-f]{64}$/);
      const downloaded = (await call(dm, 'GET', `/api/studies/${studyId}/definition`)).json();
      expect(downloaded).toMatchObject({ version, contentHash });
      const published = await database()
        .db.selectFrom('audit_events')
        .select(['after'])
        .where('study_id', '=', studyId)
        .where('event_type', '=', 'study.definition_published')
        .executeTakeFirstOrThrow();
      expect(published.after).toMatchObject({ version, contentHash });
      // The same version again replaces the draft: designers iterate before go-live.
      expect((await call(dm, 'PUT', `/api/studies/${studyId}/definition`, tmDocument())).statusCode).toBe(
        200,
      );
      const otherKey = { ...tmDocument(), key: 'otherStudy' };
      const mismatch = await call(dm, 'PUT', `/api/studies/${studyId}/definition`, otherKey);
      expect(mismatch.json().error.code).toBe('definition_key_mismatch');
    });

    it("refuses a study in design a subject, then goes live with the administrator's signature", async () => {
      // An ADMIN membership holds the design; the DM may design but not take it live.
      expect(
        (await call(dm, 'POST', `/api/studies/${studyId}/go-live`, { password: DEMO_PASSWORD })).statusCode,
      ).toBe(403);
      const wrong = await call(admin, 'POST', `/api/studies/${studyId}/go-live`, { password: 'not-mine' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().error.code).toBe('signature_password_incorrect');
      const live = await call(admin, 'POST', `/api/studies/${studyId}/go-live`, { password: DEMO_PASSWORD });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toMatchObject({ status: 'active' });
      const events = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'after'])
        .where('study_id', '=', studyId)
        .where('event_type', 'in', ['study.went_live', 'signature.failed'])
        .orderBy('id')
        .execute();
      expect(events.map((event) => event.event_type)).toEqual(['signature.failed', 'study.went_live']);
      expect(events[1]?.after).toMatchObject({ meaning: { en: expect.stringContaining('approve') } });

      // Live: the design is closed, and the site staff see the study and register a subject.
      expect((await call(dm, 'PUT', `/api/studies/${studyId}/definition`, tmDocument())).statusCode).toBe(
        409,
      );
      crc = await signIn(app, 'crc@demo.cdms');
      const subject = await call(crc, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        initials: 'HGD',
        consentDate: '2026-12-01',
      });
      expect(subject.statusCode).toBe(201);
      expect(subject.json().subjectId).toBe('S01-001');
    });

    it('serves the JSON Schema of definition documents to anyone', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/study-definition-schema' });
      expect(response.statusCode).toBe(200);
      const expected = JSON.parse(
        fs.readFileSync(definitionDocumentPath(STUDY_DEFINITION_JSON_SCHEMA), 'utf8'),
      ) as unknown;
      expect(response.json()).toEqual(expected);
    });

    it('refuses a 20 MB document before reading it, and stays up', async () => {
      const huge = JSON.stringify({ ...tmDocument(), padding: 'x'.repeat(20 * 1024 * 1024) });
      const response = await app.inject({
        method: 'PUT',
        url: `/api/studies/${studyId}/definition`,
        headers: { ...dm.headers, 'content-type': 'application/json' },
        payload: huge,
      });
      expect(response.statusCode).toBe(413);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });
  },
  { seed: 'demo' },
);
