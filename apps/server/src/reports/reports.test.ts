import { todayInKorea } from '@cdms/contract';
import { tmPerforationStudy } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * The reports over data this test saves itself through the API (an empty demo study: accounts and
 * sites, no subjects): two subjects, one at site 01 with an eligibility that contradicts a criterion,
 * no pregnancy test for a woman and two adverse events (one serious), one at site 02 with nothing
 * wrong. The expected figures are worked out here from what was saved; each reader sees only their
 * sites' share.
 */
describeWithDatabase(
  'reports over data the test saves',
  (database) => {
    let app: App;
    let studyId: number;
    const session: Record<string, SignedIn> = {};
    const today = todayInKorea();
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const report = async (who: string, key: string, query = '') => {
      const response = await as(who, 'GET', `/api/studies/${studyId}/reports/${key}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    async function newSubject(who: 'pi' | 'crc', siteId: number, initials: string): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials,
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id;
    }

    async function save(who: string, subjectId: number, visit: string, form: string, values: object) {
      const response = await as(
        who,
        'PUT',
        `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`,
        {
          values,
          version: 0,
        },
      );
      expect(response.statusCode, response.body).toBe(200);
    }

    const fineCriteria = {
      eligible: 'Y',
      inc01: 'Y',
      inc02: 'Y',
      inc03: 'Y',
      inc04: 'Y',
      ...Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`exc0${index + 1}`, 'N'])),
    };
    const event = (name: string, serious: 'Y' | 'N') => ({
      name,
      startDate: today,
      serious,
      severity: 'moderate',
      causality: 'possible',
      deviceAction: 'none',
      treatment: 'N',
      outcome: 'recovering',
    });

    let woman: number;
    let man: number;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;

      woman = await newSubject('pi', demo.siteId('01'), 'RPA');
      await save('pi', woman, 'v1', 'visitDay', { visitDate: today });
      await save('pi', woman, 'v1', 'demographicInfo', { gender: 'F' });
      // "Eligible" while inclusion 3 is not met and exclusion 5 applies: two failing criteria.
      await save('pi', woman, 'v1', 'inclusionExclusionEval', { ...fineCriteria, inc03: 'N', exc05: 'Y' });
      await save('pi', woman, 'all', 'adverseEvent', {
        hasAdverseEvent: 'Y',
        events: [event('Ear pain', 'N'), event('Vertigo', 'Y')],
      });

      man = await newSubject('crc', demo.siteId('02'), 'RPB');
      await save('crc', man, 'v1', 'visitDay', { visitDate: today });
      await save('crc', man, 'v1', 'demographicInfo', { gender: 'M' });
      await save('crc', man, 'v1', 'inclusionExclusionEval', fineCriteria);
    });
    afterAll(async () => {
      await app?.close();
    });

    it("lists the contradicting eligibility and the woman's missing pregnancy test, at her site only", async () => {
      const all = await report('dm', 'protocolDeviations');
      expect(
        all.rows.map((row: { subjectPk: number; kind: string; visitKey: string }) => [
          row.subjectPk,
          row.kind,
          row.visitKey,
        ]),
      ).toEqual([
        [woman, 'eligibleWhileCriterionFails', 'v1'],
        [woman, 'missingPregnancyTest', 'v1'],
      ]);
      expect(all.rows[0].detail.en).toBe('Eligible while these criteria fail: exc05, inc03');
      expect(all.rows[0].date).toBe(today);
      expect(all.byKind).toEqual([
        { kind: 'outOfWindow', count: 0 },
        { kind: 'eligibleWhileCriterionFails', count: 1 },
        { kind: 'treatmentOffVisitDate', count: 0 },
        { kind: 'missingPregnancyTest', count: 1 },
      ]);
      expect((await report('dm', 'protocolDeviations', '?deviation=missingPregnancyTest')).total).toBe(1);
      expect((await report('pi', 'protocolDeviations')).total).toBe(2);
      expect((await report('crc', 'protocolDeviations')).total).toBe(0);
    });

    it('lists every V1 form not saved, and the saved ones still missing required items, with days outstanding', async () => {
      const v1Forms = tmPerforationStudy.visits.find((visit) => visit.key === 'v1')?.forms ?? [];
      const { db } = database();
      const saved = await db
        .selectFrom('form_instances')
        .select(['subject_id', 'form_key', 'status'])
        .where('subject_id', 'in', [woman, man])
        .where('visit_key', '=', 'v1')
        .where('has_data', '=', true)
        .execute();
      const expectedFor = (subjectId: number) => {
        const mine = saved.filter((row) => row.subject_id === subjectId);
        return {
          empty: v1Forms.filter((form) => !mine.some((row) => row.form_key === form)).length,
          incomplete: mine.filter((row) => row.status === 'dash').length,
        };
      };
      // Three forms saved each, at least the demographics (no birth date) incomplete.
      expect(expectedFor(woman).empty).toBe(v1Forms.length - 3);
      expect(expectedFor(woman).incomplete).toBeGreaterThan(0);
      const all = await report('dm', 'missingForms', '?size=100');
      const count = (subjectId: number, state: string) =>
        all.rows.filter(
          (row: { subjectPk: number; state: string }) => row.subjectPk === subjectId && row.state === state,
        ).length;
      for (const subjectId of [woman, man]) {
        expect(count(subjectId, 'empty')).toBe(expectedFor(subjectId).empty);
        expect(count(subjectId, 'incomplete')).toBe(expectedFor(subjectId).incomplete);
      }
      expect(all.total).toBe(all.rows.length);
      expect(
        all.rows.every(
          (row: { dueDate: string; daysOutstanding: number }) =>
            row.dueDate === today && row.daysOutstanding === 0,
        ),
      ).toBe(true);
      const own = await report('crc', 'missingForms', '?size=100');
      expect(own.total).toBe(expectedFor(man).empty + expectedFor(man).incomplete);
    });

    it('lists both adverse events with their labels, the serious one alone when asked, none to the other site', async () => {
      const all = await report('dm', 'adverseEvents');
      expect(all.total).toBe(2);
      expect(all.rows[1]).toMatchObject({
        subjectPk: woman,
        eventNumber: 2,
        term: 'Vertigo',
        serious: true,
        severity: { code: 'moderate', label: { en: 'Moderate' } },
        outcome: { code: 'recovering' },
      });
      expect(
        (await report('dm', 'adverseEvents', '?serious=serious')).rows.map(
          (row: { term: string }) => row.term,
        ),
      ).toEqual(['Vertigo']);
      expect((await report('crc', 'adverseEvents')).total).toBe(0);
    });

    it('counts one screened subject per site, none randomized, for the monitor of both', async () => {
      const enrollment = await report('cra', 'enrollment');
      expect(
        enrollment.sites.map((site: { screened: number; randomized: number }) => [
          site.screened,
          site.randomized,
        ]),
      ).toEqual([
        [1, 0],
        [1, 0],
      ]);
      expect(enrollment.months).toEqual([
        { month: '2025-03', screened: 2, screeningFailures: 0, randomized: 0 },
      ]);
    });

    it('measures each site against its own target, which only data management sets (audited)', async () => {
      const demo = await demoStudyIds(database().db);
      const site1 = demo.siteId('01');
      const site2 = demo.siteId('02');
      const targetUrl = (siteId: number) => `/api/studies/${studyId}/sites/${siteId}/enrollment-target`;
      const targets = async () =>
        Object.fromEntries(
          (await report('dm', 'enrollment')).sites.map(
            (site: { siteId: number; target: number; targetIsDefault: boolean }) => [
              site.siteId,
              [site.target, site.targetIsDefault],
            ],
          ),
        );
      const { targetPerSite } = await report('dm', 'enrollment');
      expect((await targets())[site1]).toEqual([targetPerSite, true]);

      const set = await as('dm', 'PUT', targetUrl(site1), { target: 15 });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toEqual({ siteId: site1, target: 15, targetIsDefault: false });
      expect((await targets())[site1]).toEqual([15, false]);
      expect((await targets())[site2]).toEqual([targetPerSite, true]);
      // The monitor and the site staff read the target but may not change it.
      for (const who of ['cra', 'pi', 'crc'])
        expect((await as(who, 'PUT', targetUrl(site1), { target: 3 })).statusCode).toBe(403);
      // Not a site of this study; not a whole positive number; not a known field.
      expect((await as('dm', 'PUT', targetUrl(2_000_000), { target: 3 })).statusCode).toBe(404);
      for (const body of [{ target: 0 }, { target: 1.5 }, { target: '12' }, {}, { target: 3, extra: 1 }])
        expect((await as('dm', 'PUT', targetUrl(site1), body)).statusCode).toBe(400);
      // The same value again writes nothing; null returns the site to the default.
      await as('dm', 'PUT', targetUrl(site1), { target: 15 });
      const reset = await as('dm', 'PUT', targetUrl(site1), { target: null });
      expect(reset.json()).toEqual({ siteId: site1, target: targetPerSite, targetIsDefault: true });
      const audited = await database()
        .db.selectFrom('audit_events')
        .select(['before', 'after', 'site_id'])
        .where('event_type', '=', 'site.enrollment_target_changed')
        .orderBy('id')
        .execute();
      const code = (await report('dm', 'enrollment')).sites.find(
        (site: { siteId: number }) => site.siteId === site1,
      ).siteCode;
      expect(audited).toEqual([
        { site_id: site1, before: { site: code, target: null }, after: { site: code, target: 15 } },
        { site_id: site1, before: { site: code, target: 15 }, after: { site: code, target: null } },
      ]);
    });

    it('refuses a report that does not exist and a bad filter with 400', async () => {
      expect((await as('dm', 'GET', `/api/studies/${studyId}/reports/nothing`)).statusCode).toBe(400);
      expect(
        (await as('dm', 'GET', `/api/studies/${studyId}/reports/adverseEvents?serious=maybe`)).statusCode,
      ).toBe(400);
      expect((await as('dm', 'GET', `/api/studies/${studyId}/reports/missingForms?size=7`)).statusCode).toBe(
        400,
      );
    });
  },
  { seed: 'demo' },
);
