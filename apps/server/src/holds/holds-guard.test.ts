import type { HoldKindValue, HoldLevel } from '@cdms/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';

/**
 * Every write path under a freeze and a lock at each level (issue 15), as one table: for each level ×
 * kind, a fresh subject at site 01 with a saved form and two open queries; a DM places the hold; then
 * every write is tried and must be refused with 423 `frozen`/`locked` and the hold's level — except
 * what a freeze allows (queries, SDV, the investigator's signature), which must go through, and what
 * a hold on another form does not cover. The hold is lifted before the next row.
 */
describeWithDatabase(
  'every write path under freezes and locks',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const formUrl = (subjectPk: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectPk}/forms/${visit}/${form}`;

    /** A subject at site 01 with v1 vital signs saved and two open manual queries on them. */
    async function preparedSubject() {
      const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site1,
        consentDate: '2025-03-03',
        initials: 'HLD',
      });
      expect(created.statusCode).toBe(201);
      const subjectPk: number = created.json().id;
      const saved = await as('pi', 'PUT', formUrl(subjectPk, 'v1', 'vitalSigns'), {
        values: { bloodPressureSystolic: 120, bloodPressureDiastolic: 80, heartRate: 70 },
        version: 0,
      });
      expect(saved.statusCode).toBe(200);
      const queryIds: number[] = [];
      for (const item of ['heartRate', 'bloodPressureSystolic', 'bloodPressureDiastolic']) {
        const raised = await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
          subjectPk,
          visitKey: 'v1',
          formKey: 'vitalSigns',
          itemPath: `v1.vitalSigns.${item}`,
          text: 'Please check against the source.',
        });
        expect(raised.statusCode).toBe(201);
        queryIds.push(raised.json().id);
      }
      return { subjectPk, version: saved.json().version as number, queryIds };
    }

    type Prepared = Awaited<ReturnType<typeof preparedSubject>>;

    interface WriteCase {
      write: string;
      /**
       * What the write touches: the form the form-level hold is on, the subject (another of its forms,
       * or the whole subject), or only the site (registering a new subject).
       */
      reach: 'heldForm' | 'subject' | 'site';
      /** Allowed under a freeze (queries, SDV, signing). */
      allowedWhileFrozen: boolean;
      call: (subject: Prepared) => Promise<LightMyRequestResponse>;
    }

    const writes: WriteCase[] = [
      {
        write: 'subject.create',
        reach: 'site',
        allowedWhileFrozen: false,
        call: () =>
          as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
            siteId: site1,
            consentDate: '2025-03-03',
            initials: 'NEW',
          }),
      },
      {
        write: 'form.save',
        reach: 'heldForm',
        allowedWhileFrozen: false,
        call: (s) =>
          as('pi', 'PUT', formUrl(s.subjectPk, 'v1', 'vitalSigns'), {
            values: { bloodPressureSystolic: 121, bloodPressureDiastolic: 80, heartRate: 70 },
            version: s.version,
            reasons: { bloodPressureSystolic: 'Transcription error' },
          }),
      },
      {
        write: 'form.reset',
        reach: 'heldForm',
        allowedWhileFrozen: false,
        call: (s) =>
          as('pi', 'POST', `${formUrl(s.subjectPk, 'v1', 'vitalSigns')}/reset`, {
            version: s.version,
            reason: 'Entered for the wrong subject',
          }),
      },
      {
        write: 'form.comment',
        reach: 'heldForm',
        allowedWhileFrozen: false,
        call: (s) =>
          as('pi', 'POST', `${formUrl(s.subjectPk, 'v1', 'vitalSigns')}/comments`, {
            sectionKey: 'vitals',
            text: 'Measured after rest.',
          }),
      },
      {
        write: 'query.open',
        reach: 'heldForm',
        allowedWhileFrozen: true,
        call: (s) =>
          as('cra', 'POST', `/api/studies/${studyId}/queries`, {
            subjectPk: s.subjectPk,
            visitKey: 'v1',
            formKey: 'vitalSigns',
            itemPath: 'v1.vitalSigns.bodyTemperature',
            text: 'Temperature missing?',
          }),
      },
      {
        write: 'query.answer',
        reach: 'heldForm',
        allowedWhileFrozen: true,
        call: (s) =>
          as('pi', 'POST', `/api/studies/${studyId}/queries/${s.queryIds[0]}/answer`, {
            text: 'Confirmed in the chart.',
          }),
      },
      {
        write: 'query.manage (close)',
        reach: 'heldForm',
        allowedWhileFrozen: true,
        call: (s) =>
          as('cra', 'POST', `/api/studies/${studyId}/queries/${s.queryIds[1]}/close`, { text: 'Resolved.' }),
      },
      {
        write: 'query.manage (bulk)',
        reach: 'heldForm',
        allowedWhileFrozen: true,
        call: (s) =>
          as('cra', 'POST', `/api/studies/${studyId}/queries/bulk`, {
            action: 'cancel',
            queryIds: [s.queryIds[2]],
            text: 'Raised in error.',
          }),
      },
      {
        write: 'sdv.mark',
        reach: 'heldForm',
        allowedWhileFrozen: true,
        call: (s) =>
          as('cra', 'POST', `/api/studies/${studyId}/sdv/verify`, {
            subjectPk: s.subjectPk,
            visitKey: 'v1',
            formKey: 'vitalSigns',
            itemKeys: ['heartRate'],
          }),
      },
      {
        write: 'subject.randomize',
        reach: 'subject',
        allowedWhileFrozen: false,
        call: (s) => as('pi', 'POST', `/api/studies/${studyId}/subjects/${s.subjectPk}/randomize`),
      },
      {
        write: 'subject.delete',
        reach: 'subject',
        allowedWhileFrozen: false,
        call: (s) =>
          as('pi', 'DELETE', `/api/studies/${studyId}/subjects/${s.subjectPk}`, {
            reason: 'Registered in error',
          }),
      },
      {
        // Last: a signature in force changes nothing the other rows need, but keep it after them.
        write: 'casebook.sign',
        reach: 'subject',
        allowedWhileFrozen: true,
        call: (s) =>
          as('pi', 'POST', `/api/studies/${studyId}/subjects/${s.subjectPk}/signature`, {
            password: DEMO_PASSWORD,
          }),
      },
    ];

    function targetOf(level: HoldLevel, subjectPk: number) {
      switch (level) {
        case 'form':
          return { level, subjectPk, visitKey: 'v1', formKey: 'vitalSigns' };
        case 'subject':
          return { level, subjectPk };
        case 'site':
          return { level, siteId: site1 };
        case 'study':
          return { level };
      }
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
    });
    afterAll(async () => {
      await app.close();
    });

    const levels: HoldLevel[] = ['form', 'subject', 'site', 'study'];
    const kinds: HoldKindValue[] = ['frozen', 'locked'];
    for (const level of levels) {
      for (const kind of kinds) {
        it(`${kind} at the ${level} level: refuses what it holds with 423 ${kind} (${level}), lets the rest through`, async () => {
          const subject = await preparedSubject();
          const target = targetOf(level, subject.subjectPk);
          const placed = await as('dm', 'POST', `/api/studies/${studyId}/holds`, {
            kind,
            target,
            reason: 'Interim analysis',
          });
          expect(placed.statusCode).toBe(201);
          const outcomes: Record<string, number | string> = {};
          const expected: Record<string, number | string> = {};
          for (const write of writes) {
            const response = await write.call(subject);
            const body = response.statusCode === 423 ? response.json() : undefined;
            const outcome =
              response.statusCode === 423
                ? `423 ${body.error.code} ${body.error.details.level}`
                : response.statusCode < 300
                  ? 'allowed'
                  : `not held (${response.statusCode})`;
            outcomes[write.write] = outcome;
            const covered =
              level === 'study' ||
              level === 'site' ||
              (level === 'subject' && write.reach !== 'site') ||
              (level === 'form' && write.reach === 'heldForm');
            const refused = covered && !(kind === 'frozen' && write.allowedWhileFrozen);
            if (refused) expected[write.write] = `423 ${kind} ${level}`;
            else if (covered) expected[write.write] = 'allowed';
            // A hold on another form or subject does not cover it: whatever it answers, it is not a 423.
            else expected[write.write] = response.statusCode === 423 ? 'not refused by a hold' : outcome;
            if (refused) {
              // The message names the hold in the reader's language.
              expect(body.error.message).toMatch(kind === 'frozen' ? /is frozen/ : /is locked/);
            }
          }
          expect(outcomes).toEqual(expected);
          // Nothing refused was written: the form keeps its first values.
          const form = (await as('pi', 'GET', formUrl(subject.subjectPk, 'v1', 'vitalSigns'))).json();
          expect(form.values.bloodPressureSystolic).toBe(120);
          expect(form.holds).toHaveLength(1);
          expect(form.abilities.edit).toBe(false);
          const lifted = await as('dm', 'POST', `/api/studies/${studyId}/holds/lift`, {
            kind,
            target,
            reason: 'Analysis done',
          });
          expect(lifted.statusCode).toBe(200);
          expect(lifted.json()).toMatchObject({ kind, level, liftReason: 'Analysis done' });
        });
      }
    }

    it('a write outside any hold is not refused (the table above is not vacuous)', async () => {
      const subject = await preparedSubject();
      for (const write of writes.filter((candidate) => candidate.write !== 'subject.delete')) {
        const response = await write.call(subject);
        expect(response.statusCode, write.write).not.toBe(423);
      }
    });
  },
  { seed: 'demo' },
);
