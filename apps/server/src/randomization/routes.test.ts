import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import type { App } from '../http/types.ts';

describeWithDatabase(
  'randomization',
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

    /** A subject at the site, saved as eligible at V2 (or not). */
    async function subjectAt(who: string, siteId: number, eligible: 'Y' | 'N' | null = 'Y'): Promise<number> {
      const subject = (
        await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
          siteId,
          consentDate: '2025-03-03',
          initials: 'RND',
        })
      ).json();
      if (eligible) {
        const saved = await as(
          who,
          'PUT',
          `/api/studies/${studyId}/subjects/${subject.id}/forms/v2/inclusionExclusionEval`,
          { values: { eligible }, version: 0 },
        );
        expect(saved.statusCode, saved.body).toBe(200);
      }
      return subject.id;
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['admin', 'pi', 'crc', 'cra', 'dm'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const db = database().db;
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
    });
    afterAll(async () => {
      await app.close();
    });

    it('lets DM and ADMIN generate lists, nobody else, and never shows the groups', async () => {
      expect(
        (await as('cra', 'POST', `/api/studies/${studyId}/randomization/generate`, { perSite: 4, seed: 's' }))
          .statusCode,
      ).toBe(403);
      expect((await as('pi', 'GET', `/api/studies/${studyId}/randomization`)).statusCode).toBe(403);
      const generated = await as('dm', 'POST', `/api/studies/${studyId}/randomization/generate`, {
        perSite: 24,
        seed: 'trial-secret',
        siteIds: [site1],
      });
      expect(generated.statusCode).toBe(201);
      const site = generated.json().sites.find((s: { siteId: number }) => s.siteId === site1);
      expect(site).toMatchObject({ total: 24, used: 0, remaining: 24 });
      expect(generated.body).not.toMatch(/treatment|control/);
      const again = await as('admin', 'POST', `/api/studies/${studyId}/randomization/generate`, {
        perSite: 4,
        seed: 'x',
        siteIds: [site1],
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('randomization_list_exists');
    });

    it('imports a list from CSV and refuses a malformed one', async () => {
      const bad = await as('admin', 'POST', `/api/studies/${studyId}/randomization/import`, {
        csv: 'institution,sequence,group\n02,1,treatment\n02,3,control\n',
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.message).toBe(
        'The allocation CSV cannot be read: sequences must run 1, 2, 3… without gaps per institution',
      );
      // The problem is told in the reader's language, not in English inside a Korean sentence.
      const badInKorean = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/randomization/import`,
        headers: { ...(session.admin?.headers ?? {}), 'accept-language': 'ko' },
        payload: { csv: 'institution,sequence,group\n02,1,treatment\n02,3,control\n' },
      });
      expect(badInKorean.json().error.message).toBe(
        '배정표 CSV를 읽을 수 없습니다: 기관마다 배정 번호가 1, 2, 3… 빠짐없이 이어져야 합니다',
      );
      expect(
        (await as('admin', 'POST', `/api/studies/${studyId}/randomization/import`, { csv: 'site,n\n02,1' }))
          .statusCode,
      ).toBe(422);
      const csv = 'institution,sequence,group\n02,1,treatment\n02,2,control\n';
      const imported = await as('admin', 'POST', `/api/studies/${studyId}/randomization/import`, { csv });
      expect(imported.statusCode).toBe(201);
      expect(imported.json().sites.find((s: { siteId: number }) => s.siteId === site2)).toMatchObject({
        total: 2,
        remaining: 2,
      });
    });

    it('randomizes an eligible subject once: number R + institution + sequence, group, form filled, status Ongoing', async () => {
      const ineligible = await subjectAt('pi', site1, 'N');
      expect(
        (await as('pi', 'POST', `/api/studies/${studyId}/subjects/${ineligible}/randomize`)).json().error
          .code,
      ).toBe('not_eligible_for_randomization');
      const notYetEvaluated = await subjectAt('pi', site1, null);
      expect(
        (await as('pi', 'POST', `/api/studies/${studyId}/subjects/${notYetEvaluated}/randomize`)).statusCode,
      ).toBe(422);

      const subjectId = await subjectAt('pi', site1);
      const randomizationFormUrl = `/api/studies/${studyId}/subjects/${subjectId}/forms/v2/randomizationNumber`;
      // The form tells the screen whether to offer the button: site staff, before the assignment.
      expect((await as('pi', 'GET', randomizationFormUrl)).json().abilities.randomize).toBe(true);
      expect((await as('cra', 'GET', randomizationFormUrl)).json().abilities.randomize).toBe(false);
      expect(
        (await as('cra', 'POST', `/api/studies/${studyId}/subjects/${subjectId}/randomize`)).statusCode,
      ).toBe(403);
      expect(
        (await as('crc', 'POST', `/api/studies/${studyId}/subjects/${subjectId}/randomize`)).statusCode,
      ).toBe(404);
      const first = await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subjectId}/randomize`);
      expect(first.statusCode).toBe(201);
      expect(first.json().randomizationNumber).toBe('R01001');
      expect(['treatment', 'control']).toContain(first.json().group);
      expect(
        (await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subjectId}/randomize`)).json().error.code,
      ).toBe('already_randomized');
      expect((await as('pi', 'GET', randomizationFormUrl)).json().abilities.randomize).toBe(false);

      const form = (
        await as('cra', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/forms/v2/randomizationNumber`)
      ).json();
      expect(form.values).toMatchObject({
        randomizationNumber: 'R01001',
        group: first.json().group,
        suitable: 'Y',
      });
      const overview = (
        await as('pi', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/overview`)
      ).json();
      expect(overview.subject.status).toBe('ongoing');
    });

    it('gives concurrent randomizations distinct slots, in order', async () => {
      const subjects = [];
      for (let i = 0; i < 15; i++) subjects.push(await subjectAt('pi', site1));
      const responses = await Promise.all(
        subjects.map((id) => as('pi', 'POST', `/api/studies/${studyId}/subjects/${id}/randomize`)),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(15).fill(201));
      const numbers = responses.map((r) => r.json().randomizationNumber).sort();
      expect(numbers).toEqual(Array.from({ length: 15 }, (_, i) => `R01${String(i + 2).padStart(3, '0')}`));
      const slots = await database()
        .db.selectFrom('randomization_slots')
        .select(['subject_id'])
        .where('site_id', '=', site1)
        .where('subject_id', 'is not', null)
        .execute();
      expect(new Set(slots.map((s) => s.subject_id)).size).toBe(16);
    });

    it('says plainly when a site has no slot left', async () => {
      for (const expected of [201, 201, 409]) {
        const subjectId = await subjectAt('crc', site2);
        const response = await as('crc', 'POST', `/api/studies/${studyId}/subjects/${subjectId}/randomize`);
        expect(response.statusCode).toBe(expected);
        if (expected === 409) expect(response.json().error.code).toBe('randomization_list_exhausted');
      }
      expect((await verifyAuditChain(database().db)).ok).toBe(true);
    });
  },
  { seed: 'demo' },
);
