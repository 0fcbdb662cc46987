import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../src/http/types.ts';
import { answered, holdTarget, REFUSED } from './ability-walk-support.ts';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from './test-app.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * Issue 43 item 14, the rest of the walk (ability-walk.test.ts walks the subject's own abilities): the
 * actions a query thread offers (`abilities` of GET /queries/:id: answer, comment, close, cancel,
 * reopen) under no hold and under freezes and locks of the subject, its form, its site and the study,
 * and the page-level flags that show a "new …" or "edit" button (notices, guidelines, task notices,
 * normal ranges, training modules, the SDV plan, bulk query actions), for every demo role. Each
 * ability the server says true must be accepted when tried; each it says false, refused (403, 404, 423).
 */

type Who = 'pi' | 'si' | 'crc' | 'cra' | 'dm' | 'admin';
const roles: Who[] = ['pi', 'si', 'crc', 'cra', 'dm', 'admin'];
const FORM = { visitKey: 'v1', formKey: 'vitalSigns' } as const;
const VITALS = {
  measurementDate: '2026-03-10',
  bloodPressureSystolic: 122,
  bloodPressureDiastolic: 78,
  heartRate: 70,
  bodyTemperature: 36.6,
  result: 'normal',
};

type Level = 'form' | 'subject' | 'site' | 'study';
interface Situation {
  name: string;
  hold: null | { kind: 'frozen' | 'locked'; level: Level };
}
const situations: Situation[] = [
  { name: 'no hold', hold: null },
  { name: 'subject frozen', hold: { kind: 'frozen', level: 'subject' } },
  ...(['form', 'subject', 'site', 'study'] as const).map((level) => ({
    name: `${level} locked`,
    hold: { kind: 'locked' as const, level },
  })),
];

/** Which query each probe acts on: the state it must be in, and the action tried. */
const queryProbes = [
  { state: 'open', action: 'comment' },
  { state: 'open', action: 'answer' },
  { state: 'open', action: 'close' },
  { state: 'open', action: 'cancel' },
  { state: 'answered', action: 'close' },
  { state: 'answered', action: 'reopen' },
  { state: 'closed', action: 'reopen' },
] as const;

describeWithDatabase(
  'query and page abilities against the writes they stand for',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    const session = {} as Record<Who, SignedIn>;
    const as = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...session[who].headers, 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const queries = () => `/api/studies/${studyId}/queries`;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of roles) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
    });
    afterAll(async () => {
      await app.close();
    });

    const mismatches: string[] = [];
    let walked = 0;
    /** One ability against its write: true must be accepted (`accepted`), false refused. */
    async function probe(
      label: string,
      says: boolean,
      response: LightMyRequestResponse,
      accepted: (response: LightMyRequestResponse) => boolean,
    ) {
      walked += 1;
      const allowed = accepted(response);
      const refused = REFUSED.includes(response.statusCode);
      if (says ? !allowed : !refused)
        mismatches.push(
          `${label} says ${says}, the write answered ${response.statusCode} ${response.body.slice(0, 100)}`,
        );
    }

    /** A subject at site 01 with its V1 vital signs saved by the PI. */
    async function freshSubject(): Promise<number> {
      const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site1,
        consentDate: '2026-03-02',
        initials: 'QW',
      });
      expect(created.statusCode, created.body).toBe(201);
      const subjectPk: number = created.json().id;
      const saved = await as(
        'pi',
        'PUT',
        `/api/studies/${studyId}/subjects/${subjectPk}/forms/v1/vitalSigns`,
        {
          values: VITALS,
          version: 0,
        },
      );
      expect(saved.statusCode, saved.body).toBe(200);
      return subjectPk;
    }

    /** A manual query on the subject's heart rate, brought to `state` by the DM and the PI. */
    async function queryIn(subjectPk: number, state: 'open' | 'answered' | 'closed'): Promise<number> {
      const opened = await as('dm', 'POST', queries(), {
        subjectPk,
        ...FORM,
        itemPath: 'v1.vitalSigns.heartRate',
        text: 'Walk',
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const id: number = opened.json().id;
      if (state !== 'open') {
        const answered = await as('pi', 'POST', `${queries()}/${id}/answer`, { text: 'Checked' });
        expect(answered.statusCode, answered.body).toBe(200);
      }
      if (state === 'closed') {
        const closed = await as('dm', 'POST', `${queries()}/${id}/close`, { text: 'Fine' });
        expect(closed.statusCode, closed.body).toBe(200);
      }
      return id;
    }

    it('offers a query action exactly when the server takes it, for every role and hold', async () => {
      for (const situation of situations) {
        const subjectPk = await freshSubject();
        // Every role's queries exist before the hold: a lock stops new queries too.
        const prepared = new Map<string, number>();
        for (const who of roles)
          for (const [index, { state }] of queryProbes.entries())
            prepared.set(`${who} ${index}`, await queryIn(subjectPk, state));
        const hold = situation.hold
          ? {
              kind: situation.hold.kind,
              target: holdTarget(situation.hold.level, { siteId: site1, subjectPk, form: FORM }),
            }
          : null;
        if (hold) {
          const placed = await as('dm', 'POST', `/api/studies/${studyId}/holds`, { ...hold, reason: 'Walk' });
          expect(placed.statusCode, placed.body).toBe(201);
        }
        for (const who of roles) {
          for (const [index, { state, action }] of queryProbes.entries()) {
            const id = prepared.get(`${who} ${index}`) as number;
            const read = await as(who, 'GET', `${queries()}/${id}`);
            // A query on a subject outside the reader's sites is not found: it offers nothing.
            const abilities = read.statusCode === 200 ? read.json().abilities : null;
            if (read.statusCode !== 200) expect(read.statusCode, read.body).toBe(404);
            const response = await as(who, 'POST', `${queries()}/${id}/${action}`, { text: 'Walk' });
            await probe(
              `${situation.name}, ${who}: ${state} query abilities.${action}`,
              abilities?.[action] ?? false,
              response,
              answered(200),
            );
          }
        }
        if (hold) {
          const lifted = await as('dm', 'POST', `/api/studies/${studyId}/holds/lift`, {
            ...hold,
            reason: 'Walk',
          });
          expect(lifted.statusCode, lifted.body).toBe(200);
        }
      }
      expect(mismatches).toEqual([]);
      expect(walked).toBe(situations.length * roles.length * queryProbes.length);
    }, 300_000);

    it('shows "new" and "edit" buttons exactly where the server takes the write, for every role', async () => {
      mismatches.length = 0;
      walked = 0;
      const study = `/api/studies/${studyId}`;
      const dmNotice = await as('dm', 'POST', `${study}/notices`, { title: 'Walk', contentHtml: '<p>w</p>' });
      expect(dmNotice.statusCode, dmNotice.body).toBe(201);
      const noticeId: number = dmNotice.json().id;
      const dmGuideline = await as('dm', 'POST', `${study}/guidelines`, {
        guideType: 'other',
        title: 'Walk',
        contentHtml: '<p>w</p>',
        version: '1.0',
        effectiveDate: '2026-01-01',
      });
      expect(dmGuideline.statusCode, dmGuideline.body).toBe(201);
      const guidelineId: number = dmGuideline.json().id;

      for (const who of roles) {
        const read = async (url: string) => {
          const response = await as(who, 'GET', url);
          expect(response.statusCode, `${who} GET ${url}: ${response.body}`).toBe(200);
          return response.json();
        };
        const notices = await read(`${study}/notices`);
        await probe(
          `${who}: notices canWrite`,
          notices.canWrite,
          await as(who, 'POST', `${study}/notices`, { title: `Walk ${who}`, contentHtml: '<p>w</p>' }),
          answered(201),
        );
        const notice = await read(`${study}/notices/${noticeId}`);
        await probe(
          `${who}: notice canEdit`,
          notice.canEdit,
          await as(who, 'PUT', `${study}/notices/${noticeId}`, { pinned: false }),
          answered(200),
        );
        const guidelines = await read(`${study}/guidelines`);
        await probe(
          `${who}: guidelines canWrite`,
          guidelines.canWrite,
          await as(who, 'POST', `${study}/guidelines`, {
            guideType: 'other',
            title: `Walk ${who}`,
            contentHtml: '<p>w</p>',
            version: '1.0',
            effectiveDate: '2026-01-01',
          }),
          answered(201),
        );
        // A draft is read by its writers only; to anyone else it is not found, and offers nothing.
        const draft = await as(who, 'GET', `${study}/guidelines/${guidelineId}`);
        if (draft.statusCode !== 200) expect(draft.statusCode, draft.body).toBe(404);
        await probe(
          `${who}: guideline canEdit`,
          draft.statusCode === 200 ? draft.json().canEdit : false,
          await as(who, 'PUT', `${study}/guidelines/${guidelineId}`, { title: `Edited by ${who}` }),
          answered(200),
        );
        const taskNotices = await read(`${study}/task-notices`);
        await probe(
          `${who}: task notices canWrite`,
          taskNotices.canWrite,
          await as(who, 'POST', `${study}/task-notices`, {
            alarmType: 'general',
            title: `Walk ${who}`,
            content: 'w',
            roles: ['DM'],
            periodStart: '2099-01-01',
            periodEnd: '2099-01-02',
            email: true,
            sms: false,
          }),
          answered(201),
        );
        const labRanges = await read(`${study}/lab-ranges`);
        await probe(
          `${who}: lab ranges canManage`,
          labRanges.canManage,
          await as(who, 'POST', `${study}/lab-ranges`, {
            siteId: site1,
            testKey: 'ast',
            unit: 'U/L',
            low: null,
            high: 40,
            sex: null,
            ageMin: null,
            ageMax: null,
            effectiveFrom: `2025-01-${String(roles.indexOf(who) + 10)}`,
          }),
          answered(201),
        );
        const training = await read(`${study}/training`);
        await probe(
          `${who}: training canManage`,
          training.canManage,
          await as(who, 'POST', `${study}/training/modules`, {
            title: `Walk ${who}`,
            contentHtml: '<p>w</p>',
            roles: ['CRA'],
            quiz: null,
            state: 'draft',
          }),
          answered(201),
        );
        const plan = await read(`${study}/sdv/plan`);
        await probe(
          `${who}: sdv plan canEdit`,
          plan.canEdit,
          await as(who, 'PUT', `${study}/sdv/plan`, {
            mode: 'all',
            firstSubjectsPerSite: roles.indexOf(who) + 20,
          }),
          answered(200),
        );
      }
      expect(mismatches).toEqual([]);
      expect(walked).toBe(roles.length * 8);
    }, 120_000);
  },
  { seed: 'demo' },
);
