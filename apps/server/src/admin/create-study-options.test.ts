import fs from 'node:fs';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';

/**
 * Issue 45 item 1: a study created with its number formats, randomization on or off, its sites and
 * its first members, in one transaction — or, when anything is wrong, nothing at all.
 */
describeWithDatabase(
  'study creation: formats, randomization, sites and first members',
  (database) => {
    let app: App;
    let admin: SignedIn;
    const session: Record<string, SignedIn> = {};
    const call = (
      who: SignedIn | undefined,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: unknown,
    ) =>
      app.inject({
        method,
        url,
        headers: { ...(who?.headers ?? {}), 'accept-language': 'en' },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const tmDocument = () =>
      JSON.parse(fs.readFileSync(definitionDocumentPath(TM_PERFORATION_DOCUMENT), 'utf8')) as unknown;
    const base = {
      protocolNumber: 'P-1',
      titleKo: '번호 형식 연구',
      titleEn: 'Number formats',
      sponsor: '',
      kind: 'drug',
      content: '',
    };
    const sites = [
      { code: 'NEW-01', name: '한빛대학교병원', institutionNumber: '01' },
      { code: 'NEW-02', name: '새봄병원', institutionNumber: '02' },
    ];
    const members = [
      { email: 'DM@demo.cdms', role: 'DM' },
      { email: 'crc@demo.cdms', role: 'CRC', siteCodes: ['NEW-01'] },
      { email: 'pi@demo.cdms', role: 'PI', siteCodes: ['NEW-01'] },
      { email: 'cra@demo.cdms', role: 'CRA', siteCodes: ['NEW-01', 'NEW-02'] },
    ];

    /** Rows a refused creation must not have written. */
    async function counts() {
      const db = database().db;
      const count = async (table: 'studies' | 'sites' | 'memberships' | 'audit_events') =>
        Number((await db.selectFrom(table).select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      return {
        studies: await count('studies'),
        sites: await count('sites'),
        memberships: await count('memberships'),
        audit: await count('audit_events'),
      };
    }

    /** Upload TMP-2026's design (it declares randomization) and go live. */
    async function designAndGoLive(studyId: number) {
      expect((await call(admin, 'PUT', `/api/studies/${studyId}/definition`, tmDocument())).statusCode).toBe(
        200,
      );
      const live = await call(admin, 'POST', `/api/studies/${studyId}/go-live`, { password: DEMO_PASSWORD });
      expect(live.statusCode, live.body).toBe(200);
      for (const who of ['crc', 'pi', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
    });
    afterAll(async () => {
      await app.close();
    });

    it('refuses bad formats, duplicate sites and unknown members, writing nothing', async () => {
      const before = await counts();
      const refusals: [unknown, number, string][] = [
        [{ screeningNumberFormat: 'S{site}-' }, 400, 'validation_failed'],
        [{ screeningNumberFormat: '{seq:3}' }, 400, 'validation_failed'],
        [{ randomizationNumberFormat: 'R {site}{seq:3}' }, 400, 'validation_failed'],
        [{ randomizationNumberFormat: `R{site}{seq:9}` }, 400, 'validation_failed'],
        [{ screeningNumberFormat: `${'X'.repeat(30)}{site}{seq}` }, 400, 'validation_failed'],
        [{ sites: [sites[0], { ...sites[1], code: 'NEW-01' }] }, 409, 'site_code_taken'],
        [{ sites: [sites[0], { ...sites[1], institutionNumber: '01' }] }, 409, 'institution_number_taken'],
        [{ sites, members: [{ email: 'nobody@demo.cdms', role: 'DM' }] }, 422, 'unknown_member_email'],
        [
          { sites, members: [{ email: 'crc@demo.cdms', role: 'CRC', siteCodes: ['X'] }] },
          422,
          'unknown_member_site',
        ],
        [{ sites, members: [{ email: 'crc@demo.cdms', role: 'CRC' }] }, 422, 'sites_required'],
        [{ sites, members: [{ email: 'admin@demo.cdms', role: 'ADMIN' }] }, 409, 'membership_exists'],
      ];
      for (const [extra, status, code] of refusals) {
        const response = await call(admin, 'POST', '/api/admin/studies', {
          ...base,
          code: 'FMT-BAD',
          ...(extra as object),
        });
        expect(response.statusCode, JSON.stringify(extra)).toBe(status);
        expect(response.json().error.code).toBe(code);
      }
      const invalid = await call(admin, 'POST', '/api/admin/studies', {
        ...base,
        code: 'FMT-BAD',
        screeningNumberFormat: 'S-{seq:3}',
      });
      expect(JSON.stringify(invalid.json().error.details)).toContain('number_format_needs_site');
      const unknown = await call(admin, 'POST', '/api/admin/studies', {
        ...base,
        code: 'FMT-BAD',
        members: [{ email: 'nobody@demo.cdms', role: 'DM' }],
      });
      expect(unknown.json().error.message).toBe(
        'No account has the email nobody@demo.cdms: create the user first.',
      );
      expect(await counts()).toEqual(before);
    });

    it('creates a study with its sites and members, audited, and numbers subjects in its formats', async () => {
      const created = await call(admin, 'POST', '/api/admin/studies', {
        ...base,
        code: 'FMT-2027',
        screeningNumberFormat: 'SCR-{site}-{seq:4}',
        randomizationNumberFormat: 'RND{site}.{seq:2}',
        sites,
        members,
      });
      expect(created.statusCode, created.body).toBe(201);
      const study = created.json();
      expect(study).toMatchObject({
        code: 'FMT-2027',
        screeningNumberFormat: 'SCR-{site}-{seq:4}',
        randomizationEnabled: true,
        randomizationNumberFormat: 'RND{site}.{seq:2}',
        sites: [
          { code: 'NEW-01', institutionNumber: '01' },
          { code: 'NEW-02', institutionNumber: '02' },
        ],
      });
      const memberships = (await call(admin, 'GET', `/api/admin/studies/${study.id}/memberships`)).json()
        .memberships as { userEmail: string; role: string; siteIds: number[] }[];
      const site1 = study.sites[0].id;
      const site2 = study.sites[1].id;
      expect(
        memberships
          .map((m) => [m.userEmail, m.role, m.siteIds])
          .sort((a, b) => String(a).localeCompare(String(b))),
      ).toEqual([
        ['admin@demo.cdms', 'ADMIN', []],
        ['cra@demo.cdms', 'CRA', [site1, site2]],
        ['crc@demo.cdms', 'CRC', [site1]],
        ['dm@demo.cdms', 'DM', []],
        ['pi@demo.cdms', 'PI', [site1]],
      ]);
      const audit = await database()
        .db.selectFrom('audit_events')
        .select('event_type')
        .where('study_id', '=', study.id)
        .orderBy('id')
        .execute();
      expect(audit.map((row) => row.event_type)).toEqual([
        'study.created',
        'site.created',
        'site.created',
        ...Array(5).fill('membership.created'),
      ]);

      await designAndGoLive(study.id);
      const subject = await call(session.crc, 'POST', `/api/studies/${study.id}/subjects`, {
        siteId: site1,
        initials: 'FMT',
        consentDate: '2026-12-01',
      });
      expect(subject.statusCode, subject.body).toBe(201);
      expect(subject.json().subjectId).toBe('SCR-01-0001');

      // Randomized, the subject takes a number in the study's randomization format.
      const generated = await call(session.dm, 'POST', `/api/studies/${study.id}/randomization/generate`, {
        perSite: 4,
        seed: 'formats',
        siteIds: [site1],
      });
      expect(generated.statusCode, generated.body).toBe(201);
      const subjectId = subject.json().id;
      const saved = await call(
        session.crc,
        'PUT',
        `/api/studies/${study.id}/subjects/${subjectId}/forms/v2/inclusionExclusionEval`,
        { values: { eligible: 'Y' }, version: 0 },
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const randomized = await call(
        session.crc,
        'POST',
        `/api/studies/${study.id}/subjects/${subjectId}/randomize`,
      );
      expect(randomized.statusCode, randomized.body).toBe(201);
      expect(randomized.json().randomizationNumber).toBe('RND01.01');
      const list = (await call(session.crc, 'GET', `/api/studies/${study.id}/subjects`)).json();
      expect(list.subjects.map((s: { subjectId: string }) => s.subjectId)).toEqual(['SCR-01-0001']);
      expect(list.subjects[0].registrationNumber).toBe('RND01.01');
    });

    it('keeps a study created without randomization from randomizing, whatever its design declares', async () => {
      const created = await call(admin, 'POST', '/api/admin/studies', {
        ...base,
        code: 'FMT-OFF',
        randomizationEnabled: false,
        sites: [sites[0]],
        members: [
          { email: 'crc@demo.cdms', role: 'CRC', siteCodes: ['NEW-01'] },
          { email: 'dm@demo.cdms', role: 'DM' },
        ],
      });
      expect(created.statusCode, created.body).toBe(201);
      const study = created.json();
      expect(study).toMatchObject({ randomizationEnabled: false, screeningNumberFormat: 'S{site}-{seq:3}' });
      await designAndGoLive(study.id);

      const me = (await call(session.crc, 'GET', '/api/auth/me')).json();
      const membership = me.memberships.find((m: { studyId: number }) => m.studyId === study.id);
      expect(membership.abilities).toContain('subject.write');
      expect(membership.abilities).not.toContain('subject.randomize');
      expect(membership.designRoles).not.toContain('randomization');
      const dmMe = (await call(session.dm, 'GET', '/api/auth/me')).json();
      expect(
        dmMe.memberships.find((m: { studyId: number }) => m.studyId === study.id).abilities,
      ).not.toContain('randomization.manage');

      const generated = await call(session.dm, 'POST', `/api/studies/${study.id}/randomization/generate`, {
        perSite: 4,
        seed: 'off',
      });
      expect(generated.statusCode).toBe(409);
      expect(generated.json().error.code).toBe('randomization_off');
      const subject = await call(session.crc, 'POST', `/api/studies/${study.id}/subjects`, {
        siteId: study.sites[0].id,
        initials: 'OFF',
        consentDate: '2026-12-01',
      });
      expect(subject.json().subjectId).toBe('S01-001');
      const formUrl = `/api/studies/${study.id}/subjects/${subject.json().id}/forms/v2/randomizationNumber`;
      expect((await call(session.crc, 'GET', formUrl)).json().abilities.randomize).toBe(false);
      const refused = await call(
        session.crc,
        'POST',
        `/api/studies/${study.id}/subjects/${subject.json().id}/randomize`,
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe('This study was created without randomization.');
    });
  },
  { seed: 'demo' },
);
