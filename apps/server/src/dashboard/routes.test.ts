import { monthsBefore, type SubjectStatus, todayInKorea } from '@cdms/contract';
import { addDays, tmPerforationStudy } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { createMembership } from '../admin/memberships.ts';
import { createSite } from '../admin/sites.ts';
import { systemActor } from '../audit/audit-events.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { App } from '../http/types.ts';
import { rebuildReadModel } from '../read-model/rebuild-read-model.ts';
import { publishStudyDefinition } from '../study-design/publish-study-definition.ts';

/**
 * Dashboard, subject-info and visit-alarm numbers against counts the test works out itself from
 * what it saved through the API. The study is the test's own (not the demo study), so demo
 * subjects in the seed never change the expected numbers.
 */

type SiteKey = 'A' | 'B' | 'C';
type Who = 'admin' | 'pi' | 'si' | 'crc' | 'cra' | 'dm';

/** Who covers which of the test study's sites (DM and ADMIN: all). */
const COVERAGE: Record<Who, { role: 'ADMIN' | 'PI' | 'SI' | 'CRC' | 'CRA' | 'DM'; sites: SiteKey[] }> = {
  admin: { role: 'ADMIN', sites: [] },
  pi: { role: 'PI', sites: ['A'] },
  si: { role: 'SI', sites: ['A', 'C'] },
  crc: { role: 'CRC', sites: ['B'] },
  cra: { role: 'CRA', sites: ['A', 'B'] },
  dm: { role: 'DM', sites: [] },
};
const visibleSites = (who: Who): SiteKey[] =>
  COVERAGE[who].sites.length === 0 ? ['A', 'B', 'C'] : COVERAGE[who].sites;

/** One subject as the test saves it, and what the study's rules must make of it. */
interface Planned {
  name: string;
  site: SiteKey;
  consentDate: string;
  gender: 'M' | 'F' | null;
  age: number | null;
  status: SubjectStatus;
  randomized: boolean;
  /** Seriousness of each adverse event row saved. */
  adverseEvents: ('Y' | 'N')[];
}

interface PlannedAlarm {
  subject: string;
  site: SiteKey;
  visitKey: string;
  state: 'overdue' | 'due' | 'dueSoon' | 'outOfWindow';
  days: number;
  timing: 'early' | 'late' | null;
}

interface PlannedQuery {
  site: SiteKey;
  kind: 'system' | 'manual';
  status: 'open' | 'answered' | 'closed';
}

describeWithDatabase(
  'dashboard, subject info and visit alarms',
  (database) => {
    let app: App;
    const session: Partial<Record<Who, SignedIn>> = {};
    const as = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });

    const today = todayInKorea();
    const day = (offset: number) => addDays(today, offset) as string;
    let studyId: number;
    let emptyStudyId: number;
    /** A study without a definition (like the demo's ended study): no forms, so nothing to count. */
    let bareStudyId: number;
    const siteIds = {} as Record<SiteKey, number>;
    const subjectIds = new Map<string, number>();
    const planned: Planned[] = [];
    const plannedQueries: PlannedQuery[] = [];
    /** Every (subject, visit, form) the test or the server's own writes filled with data. */
    const savedPages = new Set<string>();

    /** A study of the test's own with three sites, the demo accounts as members. */
    async function createStudy(
      db: DatabaseHandle['db'],
      code: string,
      withDefinition = true,
    ): Promise<{
      id: number;
      sites: Record<SiteKey, number>;
    }> {
      const actor = systemActor('dashboard-test');
      const study = await db
        .insertInto('studies')
        .values({ code, title: `Dashboard test ${code}`, content: 'Test study', registered_on: '2026-01-05' })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (withDefinition) await publishStudyDefinition(db, actor, study.id, tmPerforationStudy);
      const sites = {} as Record<SiteKey, number>;
      for (const [index, key] of (['A', 'B', 'C'] as const).entries()) {
        const number = String(index + 1).padStart(2, '0');
        sites[key] = (
          await createSite(db, actor, study.id, {
            code: `${code}-${key}`,
            name: `Site ${key}`,
            institutionNumber: number,
          })
        ).id;
      }
      for (const [who, coverage] of Object.entries(COVERAGE)) {
        const user = await db
          .selectFrom('users')
          .select('id')
          .where('email', '=', `${who}@demo.cdms`)
          .executeTakeFirstOrThrow();
        await createMembership(db, actor, study.id, {
          userId: user.id,
          role: coverage.role,
          siteIds: coverage.sites.map((site) => sites[site]),
        });
      }
      return { id: study.id, sites };
    }

    const formUrl = (subject: string, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectIds.get(subject)}/forms/${visit}/${form}`;

    async function save(
      who: Who,
      subject: string,
      visit: string,
      form: string,
      values: Record<string, unknown>,
    ) {
      const current = await as(who, 'GET', formUrl(subject, visit, form));
      expect(current.statusCode, current.body).toBe(200);
      const saved = await as(who, 'PUT', formUrl(subject, visit, form), {
        values,
        version: current.json().version,
      });
      expect(saved.statusCode, `${subject} ${visit}.${form}: ${saved.body}`).toBe(200);
      savedPages.add(`${subject}|${visit}|${form}`);
    }

    async function visitOn(who: Who, subject: string, visit: string, date: string) {
      await save(who, subject, visit, 'visitDay', {
        visitDate: date,
        ...(date < today ? { queryRadio: '001' } : {}),
      });
    }

    async function register(who: Who, plan: Planned): Promise<void> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: siteIds[plan.site],
        consentDate: plan.consentDate,
        initials: 'DSH',
      });
      expect(created.statusCode, created.body).toBe(201);
      subjectIds.set(plan.name, created.json().id);
      // Registration fills the consent page.
      savedPages.add(`${plan.name}|consentScreening|consentScreening`);
      planned.push(plan);
      if (plan.gender !== null && plan.age !== null) {
        // Born on 1 January: the age in full years at any consent date of the year is the year difference.
        const birthYear = Number(plan.consentDate.slice(0, 4)) - plan.age;
        await save(who, plan.name, 'v1', 'demographicInfo', {
          birthDate: `${birthYear}-01-01`,
          gender: plan.gender,
        });
      }
    }

    async function randomize(who: Who, subject: string) {
      await save(who, subject, 'v2', 'inclusionExclusionEval', { eligible: 'Y' });
      const response = await as(
        who,
        'POST',
        `/api/studies/${studyId}/subjects/${subjectIds.get(subject)}/randomize`,
      );
      expect(response.statusCode, response.body).toBe(201);
      // Randomization fills the randomization-number page.
      savedPages.add(`${subject}|v2|randomizationNumber`);
    }

    async function adverseEvents(who: Who, subject: string, serious: ('Y' | 'N')[]) {
      await save(who, subject, 'all', 'adverseEvent', {
        hasAdverseEvent: 'Y',
        events: serious.map((flag, index) => ({
          name: `Event ${index + 1}`,
          startDate: day(-3),
          serious: flag,
          severity: 'mild',
          causality: 'possible',
          deviceAction: 'none',
          treatment: 'N',
          outcome: 'recovered',
        })),
      });
    }

    /**
     * The subjects and what their visit dates must raise (windows relative to V2: V1 V2−28…V2,
     * V3 V2+14±3, V4 V2+28±7, V5 V2+56±7, V6 V2+84±7; due soon within 7 days).
     */
    const plannedAlarms: PlannedAlarm[] = [
      { subject: 'A1', site: 'A', visitKey: 'v3', state: 'due', days: 3, timing: null },
      { subject: 'A1', site: 'A', visitKey: 'v4', state: 'dueSoon', days: 7, timing: null },
      { subject: 'A2', site: 'A', visitKey: 'v3', state: 'overdue', days: 13, timing: null },
      { subject: 'A2', site: 'A', visitKey: 'v4', state: 'due', days: 5, timing: null },
      { subject: 'B1', site: 'B', visitKey: 'v1', state: 'outOfWindow', days: 7, timing: 'early' },
      { subject: 'B1', site: 'B', visitKey: 'v3', state: 'dueSoon', days: 6, timing: null },
      { subject: 'C1', site: 'C', visitKey: 'v3', state: 'outOfWindow', days: 3, timing: 'late' },
      { subject: 'C1', site: 'C', visitKey: 'v4', state: 'overdue', days: 5, timing: null },
      { subject: 'A4', site: 'A', visitKey: 'v3', state: 'outOfWindow', days: 3, timing: 'early' },
    ];

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      for (const who of Object.keys(COVERAGE) as Who[]) session[who] = await signIn(app, `${who}@demo.cdms`);
      const study = await createStudy(db, 'DSH');
      studyId = study.id;
      Object.assign(siteIds, study.sites);
      emptyStudyId = (await createStudy(db, 'EMP')).id;
      bareStudyId = (await createStudy(db, 'BARE', false)).id;
      expect(
        (
          await as('dm', 'POST', `/api/studies/${studyId}/randomization/generate`, {
            perSite: 10,
            seed: 'dash',
          })
        ).statusCode,
      ).toBe(201);

      // A1: ongoing, V2 two weeks ago → V3 due (window today−3…today+3), V4 opens in 7 days. 1 SAE + 1 AE.
      await register('pi', {
        name: 'A1',
        site: 'A',
        consentDate: monthsBefore(today, 3),
        gender: 'M',
        age: 45,
        status: 'ongoing',
        randomized: true,
        adverseEvents: ['Y', 'N'],
      });
      await visitOn('pi', 'A1', 'v1', day(-21));
      await visitOn('pi', 'A1', 'v2', day(-14));
      await randomize('pi', 'A1');
      await adverseEvents('pi', 'A1', ['Y', 'N']);

      // A2: ongoing, V2 30 days ago → V3 overdue by 13 days, V4 due (5 days left).
      await register('pi', {
        name: 'A2',
        site: 'A',
        consentDate: monthsBefore(today, 3),
        gender: 'F',
        age: 25,
        status: 'ongoing',
        randomized: true,
        adverseEvents: [],
      });
      await visitOn('pi', 'A2', 'v1', day(-37));
      await visitOn('pi', 'A2', 'v2', day(-30));
      await randomize('pi', 'A2');

      // A3: screening; V1 before the consent date opens a system query. No V2, so no alarm.
      await register('pi', {
        name: 'A3',
        site: 'A',
        consentDate: today,
        gender: null,
        age: null,
        status: 'screening',
        randomized: false,
        adverseEvents: [],
      });
      await visitOn('pi', 'A3', 'v1', day(-1));
      plannedQueries.push({ site: 'A', kind: 'system', status: 'open' });

      // A4: complete; V3 done 3 days before its window (a deviation listed though the subject is done); V4–V6 missing, no alarm.
      await register('si', {
        name: 'A4',
        site: 'A',
        consentDate: monthsBefore(today, 5),
        gender: 'F',
        age: 71,
        status: 'complete',
        randomized: true,
        adverseEvents: [],
      });
      await visitOn('si', 'A4', 'v1', day(-107));
      await visitOn('si', 'A4', 'v2', day(-100));
      await randomize('si', 'A4');
      await visitOn('si', 'A4', 'v3', day(-92));
      await save('si', 'A4', 'all', 'endExamination', { completed: 'Y', observationEndDate: day(-2) });

      // B1: ongoing, V1 seven days before its window (V2−28), V3 opens in 6 days. 1 AE.
      await register('crc', {
        name: 'B1',
        site: 'B',
        consentDate: monthsBefore(today, 2),
        gender: 'M',
        age: 62,
        status: 'ongoing',
        randomized: true,
        adverseEvents: ['N'],
      });
      await visitOn('crc', 'B1', 'v1', day(-40));
      await visitOn('crc', 'B1', 'v2', day(-5));
      await randomize('crc', 'B1');
      await adverseEvents('crc', 'B1', ['N']);

      // B2: screening failure at V1; V1 before consent opens a system query (answered below).
      await register('crc', {
        name: 'B2',
        site: 'B',
        consentDate: monthsBefore(today, 2),
        gender: 'F',
        age: 33,
        status: 'screening_failure',
        randomized: false,
        adverseEvents: [],
      });
      await visitOn('crc', 'B2', 'v1', day(-70));
      await save('crc', 'B2', 'v1', 'inclusionExclusionEval', { eligible: 'N' });

      // B3: drop-out after randomization; V3 would open in a day, but a drop-out has no visits to come. 1 SAE.
      await register('crc', {
        name: 'B3',
        site: 'B',
        consentDate: monthsBefore(today, 1),
        gender: 'M',
        age: 30,
        status: 'dropout',
        randomized: true,
        adverseEvents: ['Y'],
      });
      await visitOn('crc', 'B3', 'v1', day(-17));
      await visitOn('crc', 'B3', 'v2', day(-10));
      await randomize('crc', 'B3');
      await adverseEvents('crc', 'B3', ['Y']);
      await save('crc', 'B3', 'all', 'endExamination', {
        completed: 'N',
        dropoutDate: day(-1),
        dropoutReason: '003',
      });

      // C1: ongoing, no demographics; V3 done 3 days late, V4 overdue by 5, V5 opens in 9 days (not yet due soon).
      await register('si', {
        name: 'C1',
        site: 'C',
        consentDate: monthsBefore(today, 2),
        gender: null,
        age: null,
        status: 'ongoing',
        randomized: true,
        adverseEvents: [],
      });
      await visitOn('si', 'C1', 'v1', day(-47));
      await visitOn('si', 'C1', 'v2', day(-40));
      await randomize('si', 'C1');
      await visitOn('si', 'C1', 'v3', day(-20));

      // Answering and manual queries have no API yet (the query workflow comes with its own issue):
      // the test writes those rows itself, as that workflow will — and, as it will, brings the
      // subjects' read-model rows up to date afterwards.
      const b2Query = await db
        .selectFrom('queries')
        .select('id')
        .where('subject_id', '=', subjectIds.get('B2') as number)
        .where('kind', '=', 'system')
        .executeTakeFirstOrThrow();
      await db.updateTable('queries').set({ status: 'answered' }).where('id', '=', b2Query.id).execute();
      plannedQueries.push({ site: 'B', kind: 'system', status: 'answered' });
      const manual = async (subject: string, site: SiteKey, status: PlannedQuery['status']) => {
        await db
          .insertInto('queries')
          .values({
            study_id: studyId,
            site_id: siteIds[site],
            subject_id: subjectIds.get(subject) as number,
            visit_key: 'v1',
            form_key: 'demographicInfo',
            item_path: 'gender',
            kind: 'manual',
            status,
            message: JSON.stringify({ ko: '확인 바랍니다.', en: 'Please check.' }),
          })
          .execute();
        plannedQueries.push({ site, kind: 'manual', status });
      };
      await manual('A2', 'A', 'open');
      await manual('B1', 'B', 'open');
      await manual('C1', 'C', 'answered');
      await manual('A1', 'A', 'closed');
      await rebuildReadModel(db, { subjectIds: [...subjectIds.values()] });
    });
    afterAll(async () => {
      await app.close();
    });

    // The test's own arithmetic over what it saved.
    function ageBand(age: number | null): string {
      if (age === null) return 'notEntered';
      if (age < 30) return 'under30';
      if (age >= 70) return '70andOver';
      const decade = Math.floor(age / 10) * 10;
      return `${decade}to${decade + 9}`;
    }
    function statusCounts(subjects: Planned[]) {
      const counts = { screening: 0, screening_failure: 0, ongoing: 0, complete: 0, dropout: 0 };
      for (const subject of subjects) counts[subject.status] += 1;
      return counts;
    }
    function group(subjects: Planned[]) {
      return {
        total: subjects.length,
        randomized: subjects.filter((subject) => subject.randomized).length,
        statuses: statusCounts(subjects),
      };
    }
    function monthSeries(subjects: Planned[]) {
      if (subjects.length === 0) return [];
      const first = subjects.map((subject) => subject.consentDate.slice(0, 7)).sort()[0] as string;
      const series: { month: string; count: number }[] = [];
      const cursor = new Date(`${first}-01T00:00:00Z`);
      while (cursor.toISOString().slice(0, 7) <= today.slice(0, 7)) {
        const month = cursor.toISOString().slice(0, 7);
        series.push({
          month,
          count: subjects.filter((subject) => subject.consentDate.startsWith(month)).length,
        });
        cursor.setUTCMonth(cursor.getUTCMonth() + 1);
      }
      return series;
    }
    function alarmCounts(alarms: PlannedAlarm[]) {
      return {
        overdue: alarms.filter((alarm) => alarm.state === 'overdue').length,
        due: alarms.filter((alarm) => alarm.state === 'due').length,
        dueSoon: alarms.filter((alarm) => alarm.state === 'dueSoon').length,
        outOfWindow: alarms.filter((alarm) => alarm.state === 'outOfWindow').length,
      };
    }
    function queryCount(sites: SiteKey[], kind: 'system' | 'manual', status: 'open' | 'answered') {
      return plannedQueries.filter((q) => sites.includes(q.site) && q.kind === kind && q.status === status)
        .length;
    }

    it('saved subjects reached the statuses the study rules give them', async () => {
      for (const plan of planned) {
        const overview = await as(
          'dm',
          'GET',
          `/api/studies/${studyId}/subjects/${subjectIds.get(plan.name)}/overview`,
        );
        expect(overview.json().subject.status, plan.name).toBe(plan.status);
      }
    });

    for (const who of ['dm', 'pi', 'crc', 'si', 'cra'] as const) {
      it(`gives ${who} every dashboard number over their own sites`, async () => {
        const sites = visibleSites(who);
        const mine = planned.filter((subject) => sites.includes(subject.site));
        const response = await as(who, 'GET', `/api/studies/${studyId}/dashboard`);
        expect(response.statusCode, response.body).toBe(200);
        const dashboard = response.json();

        expect(dashboard.study).toEqual({
          id: studyId,
          code: 'DSH',
          title: 'Dashboard test DSH',
          content: 'Test study',
        });
        expect(dashboard.subjects).toEqual(group(mine));
        expect(dashboard.queries).toEqual({
          system: {
            open: queryCount(sites, 'system', 'open'),
            answered: queryCount(sites, 'system', 'answered'),
          },
          manual: {
            open: queryCount(sites, 'manual', 'open'),
            answered: queryCount(sites, 'manual', 'answered'),
          },
        });
        const events = mine.flatMap((subject) => subject.adverseEvents);
        expect(dashboard.safety).toEqual({
          adverseEvents: events.length,
          seriousAdverseEvents: events.filter((flag) => flag === 'Y').length,
          subjectsWithAdverseEvents: mine.filter((subject) => subject.adverseEvents.length > 0).length,
          subjectsWithSeriousAdverseEvents: mine.filter((subject) => subject.adverseEvents.includes('Y'))
            .length,
        });

        const byGender = Object.fromEntries(
          dashboard.targetStatus.byGender.map((g: { key: string }) => [g.key, g]),
        );
        expect(Object.keys(byGender)).toEqual(['M', 'F', 'notEntered']);
        for (const [key, gender] of [
          ['M', 'M'],
          ['F', 'F'],
          ['notEntered', null],
        ] as const) {
          expect(byGender[key], `${who} gender ${key}`).toMatchObject(
            group(mine.filter((subject) => subject.gender === gender)),
          );
        }
        expect(byGender.M.label).toEqual({ ko: '남', en: 'Male' });
        const byAge = dashboard.targetStatus.byAge as { key: string; total: number }[];
        expect(byAge.map((band) => band.key)).toEqual([
          'under30',
          '30to39',
          '40to49',
          '50to59',
          '60to69',
          '70andOver',
          'notEntered',
        ]);
        for (const band of byAge) {
          expect(band, `${who} age ${band.key}`).toMatchObject(
            group(mine.filter((subject) => ageBand(subject.age) === band.key)),
          );
        }

        expect(dashboard.registrations).toEqual({ siteId: null, months: monthSeries(mine) });
        expect(dashboard.sites.map((site: { id: number }) => site.id)).toEqual(
          sites.map((site) => siteIds[site]),
        );
        expect(dashboard.visitAlarms).toEqual(
          alarmCounts(plannedAlarms.filter((alarm) => sites.includes(alarm.site))),
        );
        expect(dashboard.today).toBe(today);
      });
    }

    it('narrows only the monthly chart to the chosen institution, and only to one in scope', async () => {
      const chosen = await as('cra', 'GET', `/api/studies/${studyId}/dashboard?site=${siteIds.B}`);
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json().registrations).toEqual({
        siteId: siteIds.B,
        months: monthSeries(planned.filter((subject) => subject.site === 'B')),
      });
      expect(chosen.json().subjects.total).toBe(planned.filter((s) => s.site !== 'C').length);
      // The CRC works at B only: A is not theirs to name; C is the CRA's neither.
      expect((await as('crc', 'GET', `/api/studies/${studyId}/dashboard?site=${siteIds.A}`)).statusCode).toBe(
        404,
      );
      expect((await as('cra', 'GET', `/api/studies/${studyId}/dashboard?site=${siteIds.C}`)).statusCode).toBe(
        404,
      );
      const otherStudySite = await as(
        'dm',
        'GET',
        `/api/studies/${studyId}/dashboard?site=${siteIds.A + 1000}`,
      );
      expect(otherStudySite.statusCode).toBe(404);
      for (const bad of ['abc', '0', '-1', '1.5', '']) {
        const response = await as('dm', 'GET', `/api/studies/${studyId}/dashboard?site=${bad}`);
        expect(response.statusCode, `site=${bad}`).toBe(400);
        expect(response.json().error.code).toBe('validation_failed');
      }
      expect((await as('dm', 'GET', '/api/studies/999999/dashboard')).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: `/api/studies/${studyId}/dashboard` })).statusCode).toBe(
        401,
      );
    });

    it('shows an empty study as zeros and empty series', async () => {
      const response = await as('dm', 'GET', `/api/studies/${emptyStudyId}/dashboard`);
      expect(response.statusCode).toBe(200);
      const dashboard = response.json();
      expect(dashboard.subjects).toEqual(group([]));
      expect(dashboard.queries).toEqual({
        system: { open: 0, answered: 0 },
        manual: { open: 0, answered: 0 },
      });
      expect(dashboard.safety).toEqual({
        adverseEvents: 0,
        seriousAdverseEvents: 0,
        subjectsWithAdverseEvents: 0,
        subjectsWithSeriousAdverseEvents: 0,
      });
      expect(dashboard.registrations.months).toEqual([]);
      expect(dashboard.visitAlarms).toEqual({ overdue: 0, due: 0, dueSoon: 0, outOfWindow: 0 });
      expect(dashboard.targetStatus.byGender.every((g: { total: number }) => g.total === 0)).toBe(true);
      expect(dashboard.sites).toHaveLength(3);
      const info = await as('crc', 'GET', `/api/studies/${emptyStudyId}/subject-info`);
      expect(info.json()).toEqual({
        openQueries: 0,
        answeredQueries: 0,
        seriousAdverseEvents: 0,
        ecrfPages: 0,
        pagesNotSdvComplete: 0,
        visitAlarms: { overdue: 0, due: 0, dueSoon: 0, outOfWindow: 0 },
      });
    });

    it('answers zeros, not an error, for a study without a definition', async () => {
      const dashboard = await as('dm', 'GET', `/api/studies/${bareStudyId}/dashboard`);
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      expect(dashboard.json().subjects).toEqual(group([]));
      expect(dashboard.json().targetStatus.byGender.map((g: { key: string }) => g.key)).toEqual([
        'notEntered',
      ]);
      expect(dashboard.json().registrations.months).toEqual([]);
      const alarms = await as('pi', 'GET', `/api/studies/${bareStudyId}/visit-alarms`);
      expect(alarms.statusCode).toBe(200);
      expect(alarms.json()).toMatchObject({ alarms: [], total: 0, dueSoonDays: 7 });
      expect((await as('crc', 'GET', `/api/studies/${bareStudyId}/subject-info`)).json().ecrfPages).toBe(0);
    });

    for (const who of ['dm', 'crc', 'pi'] as const) {
      it(`counts ${who}'s subject-info popup over their own sites`, async () => {
        const sites = visibleSites(who);
        const mine = planned.filter((subject) => sites.includes(subject.site));
        const pages = [...savedPages].filter((page) =>
          mine.some((subject) => page.startsWith(`${subject.name}|`)),
        );
        const response = await as(who, 'GET', `/api/studies/${studyId}/subject-info`);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toEqual({
          openQueries: queryCount(sites, 'system', 'open') + queryCount(sites, 'manual', 'open'),
          answeredQueries: queryCount(sites, 'system', 'answered') + queryCount(sites, 'manual', 'answered'),
          seriousAdverseEvents: mine
            .flatMap((subject) => subject.adverseEvents)
            .filter((flag) => flag === 'Y').length,
          ecrfPages: pages.length,
          // Nothing is verified here and the plan is every item, so every saved page is still to be
          // verified, except the randomization number page: the system fills it with a read-only item,
          // and SDV verifies only what people transcribe (sdv-rules.ts).
          pagesNotSdvComplete: pages.filter((page) => !page.endsWith('|v2|randomizationNumber')).length,
          visitAlarms: alarmCounts(plannedAlarms.filter((alarm) => sites.includes(alarm.site))),
        });
      });
    }

    it('lists each alarm with its window, in order of urgency, for the reader’s sites', async () => {
      const response = await as('dm', 'GET', `/api/studies/${studyId}/visit-alarms?size=50`);
      expect(response.statusCode, response.body).toBe(200);
      const list = response.json();
      expect(list.total).toBe(plannedAlarms.length);
      expect(list.counts).toEqual(alarmCounts(plannedAlarms));
      expect(list.dueSoonDays).toBe(7);
      expect(list.today).toBe(today);
      expect(list.sites.map((site: { id: number }) => site.id)).toEqual([siteIds.A, siteIds.B, siteIds.C]);
      const rows = list.alarms.map(
        (alarm: {
          subject: { id: number };
          visitKey: string;
          state: string;
          days: number;
          timing: string | null;
        }) => ({
          subject: [...subjectIds].find(([, id]) => id === alarm.subject.id)?.[0],
          visitKey: alarm.visitKey,
          state: alarm.state,
          days: alarm.days,
          timing: alarm.timing,
        }),
      );
      expect(rows).toEqual([
        { subject: 'A2', visitKey: 'v3', state: 'overdue', days: 13, timing: null },
        { subject: 'C1', visitKey: 'v4', state: 'overdue', days: 5, timing: null },
        { subject: 'A1', visitKey: 'v3', state: 'due', days: 3, timing: null },
        { subject: 'A2', visitKey: 'v4', state: 'due', days: 5, timing: null },
        { subject: 'B1', visitKey: 'v3', state: 'dueSoon', days: 6, timing: null },
        { subject: 'A1', visitKey: 'v4', state: 'dueSoon', days: 7, timing: null },
        // Deviations: the most recent visit first.
        { subject: 'C1', visitKey: 'v3', state: 'outOfWindow', days: 3, timing: 'late' },
        { subject: 'B1', visitKey: 'v1', state: 'outOfWindow', days: 7, timing: 'early' },
        { subject: 'A4', visitKey: 'v3', state: 'outOfWindow', days: 3, timing: 'early' },
      ]);
      const a2v3 = list.alarms[0];
      expect(a2v3).toMatchObject({
        subject: {
          subjectId: 'S01-002',
          siteId: siteIds.A,
          siteCode: 'DSH-A',
          siteName: 'Site A',
          status: 'ongoing',
          registrationNumber: 'R01002',
        },
        visitLabel: { ko: '추적 관찰 (V3)', en: 'Follow-up (V3)' },
        expectedDate: day(-16),
        earliestDate: day(-19),
        latestDate: day(-13),
        actualDate: null,
      });
      expect(
        list.alarms.find(
          (alarm: { visitKey: string; state: string; subject: { subjectId: string } }) =>
            alarm.visitKey === 'v3' &&
            alarm.state === 'outOfWindow' &&
            alarm.subject.subjectId.startsWith('S03'),
        )?.actualDate,
      ).toBe(day(-20));
    });

    it('filters alarms by site and state, counts over the site only, and pages', async () => {
      const url = (query: string) => `/api/studies/${studyId}/visit-alarms?${query}`;
      const overdue = (await as('dm', 'GET', url('state=overdue'))).json();
      expect(overdue.total).toBe(2);
      expect(overdue.counts).toEqual(alarmCounts(plannedAlarms));
      expect(overdue.alarms.every((alarm: { state: string }) => alarm.state === 'overdue')).toBe(true);

      const siteB = (await as('dm', 'GET', url(`site=${siteIds.B}`))).json();
      const plannedB = plannedAlarms.filter((alarm) => alarm.site === 'B');
      expect(siteB.total).toBe(plannedB.length);
      expect(siteB.counts).toEqual(alarmCounts(plannedB));
      const siteBDueSoon = (await as('dm', 'GET', url(`site=${siteIds.B}&state=dueSoon`))).json();
      expect(siteBDueSoon.alarms.map((alarm: { visitKey: string }) => alarm.visitKey)).toEqual(['v3']);

      // The CRC sees site B only, and may not name site A.
      const crc = (await as('crc', 'GET', url(''))).json();
      expect(crc.counts).toEqual(alarmCounts(plannedB));
      expect(crc.sites.map((site: { id: number }) => site.id)).toEqual([siteIds.B]);
      expect((await as('crc', 'GET', url(`site=${siteIds.A}`))).statusCode).toBe(404);

      const first = (await as('dm', 'GET', url('size=10&page=1'))).json();
      expect(first.alarms).toHaveLength(plannedAlarms.length);
      const beyond = (await as('dm', 'GET', url('size=10&page=2'))).json();
      expect(beyond).toMatchObject({ alarms: [], total: plannedAlarms.length, page: 2, size: 10 });

      for (const bad of ['state=late', 'size=7', 'size=abc', 'page=0', 'page=-1', 'site=x', 'site=0']) {
        const response = await as('dm', 'GET', url(bad));
        expect(response.statusCode, bad).toBe(400);
        expect(response.json().error.code).toBe('validation_failed');
      }
      expect((await as('dm', 'GET', '/api/studies/999999/visit-alarms')).statusCode).toBe(404);
    });
  },
  { seed: 'demo' },
);
