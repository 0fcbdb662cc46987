import { tmPerforationStudy } from '@cdms/study';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../src/http/types.ts';
import { DEMO_PASSWORD } from '../src/seed/demo-seed.ts';
import { answered, holdTarget, REFUSED } from './ability-walk-support.ts';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from './test-app.ts';
import { describeWithDatabase } from './test-database.ts';

/**
 * Issue 43 item 14: the browser offers only what the server allows. The server tells the browser what
 * the reader may do (the overview's unscheduled-visit and hold abilities, the form read's abilities, the
 * signature's `canSign`, the subject list's `canDelete`, the SDV page's `canVerify`, the membership's
 * abilities in GET /api/auth/me — "add subject"); the browser reads
 * them and decides nothing itself. This walk holds every one of them to the write it stands for: under
 * no hold, a frozen and a locked subject, site and study, and a frozen and a locked form, for every
 * demo role, each ability the server says true must be accepted when tried, and each it says false
 * refused (403, 404 or 423) — so a button the page shows is never answered with a refusal, and one it
 * hides would have been refused.
 *
 * Each situation gets a fresh subject at site 01 (PI and SI work there, the CRC at site 02, the CRA
 * monitors both): a signature given cannot be taken back, so no situation inherits another's.
 * Accepted writes that change something are undone at once (a visit added is deleted, a mark withdrawn,
 * a hold lifted), so each role meets the situation as it was set up.
 */

const VITALS = {
  measurementDate: '2026-03-10',
  bloodPressureSystolic: 122,
  bloodPressureDiastolic: 78,
  heartRate: 70,
  bodyTemperature: 36.6,
  result: 'normal',
};
const FORM = { visitKey: 'v1', formKey: 'vitalSigns' } as const;
/** A second saved form, never the one a form-level hold is placed on. */
const OTHER_FORM = { visitKey: 'v1', formKey: 'demographicInfo' } as const;

type Who = 'pi' | 'si' | 'crc' | 'cra' | 'dm' | 'admin';
const roles: Who[] = ['pi', 'si', 'crc', 'cra', 'dm', 'admin'];

type HoldKind = 'frozen' | 'locked';
interface Situation {
  name: string;
  hold: null | { kind: HoldKind; level: 'form' | 'subject' | 'site' | 'study' };
}
const situations: Situation[] = [
  { name: 'no hold', hold: null },
  ...(['subject', 'site', 'study', 'form'] as const).flatMap((level) =>
    (['frozen', 'locked'] as const).map((kind) => ({ name: `${level} ${kind}`, hold: { kind, level } })),
  ),
];

describeWithDatabase(
  'abilities against the writes they stand for',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    const session = {} as Record<Who, SignedIn>;
    const as = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...session[who].headers, 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });

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

    /** A subject at site 01 with two saved forms of V1 and one empty unscheduled visit, entered by its PI. */
    async function freshSubject(): Promise<number> {
      const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site1,
        consentDate: '2026-03-02',
        initials: 'AW',
      });
      expect(created.statusCode, created.body).toBe(201);
      const subjectPk: number = created.json().id;
      const base = `/api/studies/${studyId}/subjects/${subjectPk}`;
      const vitals = await as('pi', 'PUT', `${base}/forms/v1/vitalSigns`, { values: VITALS, version: 0 });
      expect(vitals.statusCode, vitals.body).toBe(200);
      const demographic = await as('pi', 'PUT', `${base}/forms/v1/demographicInfo`, {
        values: { gender: 'F' },
        version: 0,
      });
      expect(demographic.statusCode, demographic.body).toBe(200);
      const visit = await as('pi', 'POST', `${base}/unscheduled-visits`, {
        visitDate: '2026-03-05',
        reason: 'Walk',
      });
      expect(visit.statusCode, visit.body).toBe(201);
      return subjectPk;
    }

    it('accepts every write an ability allows and refuses every one it does not, for every role and hold', async () => {
      const mismatches: string[] = [];
      let walked = 0;
      for (const situation of situations) {
        const subjectPk = await freshSubject();
        const base = `/api/studies/${studyId}/subjects/${subjectPk}`;
        let emptyVisit = 1;
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
          const read = async (url: string) => {
            const response = await as(who, 'GET', url);
            // A subject outside the reader's sites is not found: every ability of it is false.
            if (response.statusCode === 404) return null;
            expect(response.statusCode, `${who} GET ${url}: ${response.body}`).toBe(200);
            return response.json();
          };
          const overview = await read(`${base}/overview`);
          const form = await read(`${base}/forms/${FORM.visitKey}/${FORM.formKey}`);
          const randomization = await read(
            `${base}/forms/${tmPerforationStudy.roles?.randomization?.visit}/${tmPerforationStudy.roles?.randomization?.form}`,
          );
          const signature = await read(`${base}/signature`);
          const sdvSubject = await read(`/api/studies/${studyId}/sdv/subjects/${subjectPk}`);
          const list = await read(`/api/studies/${studyId}/subjects?size=100`);
          const listRow = list?.subjects.find((row: { pk: number }) => row.pk === subjectPk);

          /**
           * One ability against its write: `accepted` is the answer the write gets when allowed (a status,
           * or a status with the error code that only the data, not the permission or a hold, decides).
           */
          const probe = async (
            ability: string,
            says: boolean,
            write: () => Promise<LightMyRequestResponse>,
            accepted: (response: LightMyRequestResponse) => boolean,
            undo?: () => Promise<void>,
            /** A refusal of this write whatever the role and holds (the signing form is never saved). */
            alsoRefused?: (response: LightMyRequestResponse) => boolean,
          ) => {
            walked += 1;
            const response = await write();
            const allowed = accepted(response);
            const refused = REFUSED.includes(response.statusCode) || alsoRefused?.(response) === true;
            if (says ? !allowed : !refused) {
              mismatches.push(
                `${situation.name}, ${who}: ${ability} says ${says}, the write answered ${response.statusCode} ${response.body.slice(0, 100)}`,
              );
            }
            if (allowed && undo) await undo();
          };
          const placeHold = (kind: HoldKind, target: object) => () =>
            as(who, 'POST', `/api/studies/${studyId}/holds`, { kind, target, reason: 'Walk' });
          // Placing a hold that is in force already (the situation's own) is a 409 past the permission.
          const placed = (response: LightMyRequestResponse) =>
            answered(201)(response) || answered(409, 'hold_already_in_force')(response);
          const liftHold = (kind: HoldKind, target: object) => async () => {
            const lifted = await as(who, 'POST', `/api/studies/${studyId}/holds/lift`, {
              kind,
              target,
              reason: 'Walk',
            });
            if (lifted.statusCode !== 200 && lifted.statusCode !== 404)
              expect(lifted.statusCode, lifted.body).toBe(200);
          };
          const liftIfPlaced = (kind: HoldKind, target: object) => async () => {
            // Never lift the situation's own hold.
            if (hold && hold.kind === kind && JSON.stringify(hold.target) === JSON.stringify(target)) return;
            await liftHold(kind, target)();
          };

          // The overview: unscheduled visits and the subject's holds.
          await probe(
            'overview.unscheduledVisitAbilities.add',
            overview?.unscheduledVisitAbilities.add ?? false,
            () => as(who, 'POST', `${base}/unscheduled-visits`, { visitDate: '2026-03-06', reason: 'Walk' }),
            answered(201),
            async () => {
              const added = (await as(who, 'GET', `${base}/overview`)).json().unscheduledVisits as {
                repeatKey: number;
              }[];
              const newest = Math.max(...added.map((visit) => visit.repeatKey));
              const removed = await as(who, 'DELETE', `${base}/unscheduled-visits/${newest}`, {
                reason: 'Walk',
              });
              expect(removed.statusCode, removed.body).toBe(204);
            },
          );
          await probe(
            'overview.unscheduledVisitAbilities.delete',
            overview?.unscheduledVisitAbilities.delete ?? false,
            () => as(who, 'DELETE', `${base}/unscheduled-visits/${emptyVisit}`, { reason: 'Walk' }),
            answered(204),
            async () => {
              const again = await as(who, 'POST', `${base}/unscheduled-visits`, {
                visitDate: '2026-03-05',
                reason: 'Walk',
              });
              expect(again.statusCode, again.body).toBe(201);
              emptyVisit = again.json().repeatKey;
            },
          );
          const subjectTarget = { level: 'subject', subjectPk };
          for (const kind of ['frozen', 'locked'] as const) {
            await probe(
              `overview.holdAbilities.${kind === 'frozen' ? 'freeze' : 'lock'}`,
              overview?.holdAbilities[kind === 'frozen' ? 'freeze' : 'lock'] ?? false,
              placeHold(kind, subjectTarget),
              placed,
              liftIfPlaced(kind, subjectTarget),
            );
          }

          // The form read.
          await probe(
            'form.abilities.edit',
            form?.abilities.edit ?? false,
            () =>
              as(who, 'PUT', `${base}/forms/${FORM.visitKey}/${FORM.formKey}`, {
                values: VITALS,
                version: form?.version ?? 1,
              }),
            answered(200),
          );
          await probe(
            'form.abilities.openQuery',
            form?.abilities.openQuery ?? false,
            () =>
              as(who, 'POST', `/api/studies/${studyId}/queries`, {
                subjectPk,
                ...FORM,
                itemPath: 'v1.vitalSigns.heartRate',
                text: 'Walk',
              }),
            answered(201),
          );
          const marks = { subjectPk, ...FORM, itemKeys: ['heartRate'] };
          await probe(
            'form.abilities.verify',
            form?.abilities.verify ?? false,
            () => as(who, 'POST', `/api/studies/${studyId}/sdv/verify`, marks),
            answered(200),
            async () => {
              const withdrawn = await as(who, 'POST', `/api/studies/${studyId}/sdv/unverify`, {
                ...marks,
                reason: 'Walk',
              });
              expect(withdrawn.statusCode, withdrawn.body).toBe(200);
            },
          );
          const formTarget = { level: 'form', subjectPk, ...FORM };
          for (const kind of ['frozen', 'locked'] as const) {
            await probe(
              `form.abilities.${kind === 'frozen' ? 'freeze' : 'lock'}`,
              form?.abilities[kind === 'frozen' ? 'freeze' : 'lock'] ?? false,
              placeHold(kind, formTarget),
              placed,
              liftIfPlaced(kind, formTarget),
            );
          }
          // The signing form: filled by the PI's signature only, never saved as a form.
          const signing = await read(`${base}/forms/all/testDirectorSigning`);
          await probe(
            'signing form abilities.edit',
            signing?.abilities.edit ?? false,
            () =>
              as(who, 'PUT', `${base}/forms/all/testDirectorSigning`, {
                values: {},
                version: signing?.version ?? 0,
              }),
            answered(200),
            undefined,
            answered(422, 'signature_form_read_only'),
          );
          // The randomization form: the subject is not eligible, which the server says only on asking
          // (the ability is about who and what holds it: the contract's word).
          await probe(
            'randomization form abilities.randomize',
            randomization?.abilities.randomize ?? false,
            () => as(who, 'POST', `${base}/randomize`),
            answered(422, 'not_eligible_for_randomization'),
          );

          // The SDV page's subject: verifying there (on a form no form-level hold of the walk covers).
          const otherMarks = { subjectPk, ...OTHER_FORM, itemKeys: ['gender'] };
          await probe(
            'sdv subject canVerify',
            sdvSubject?.canVerify ?? false,
            () => as(who, 'POST', `/api/studies/${studyId}/sdv/verify`, otherMarks),
            answered(200),
            async () => {
              const withdrawn = await as(who, 'POST', `/api/studies/${studyId}/sdv/unverify`, {
                ...otherMarks,
                reason: 'Walk',
              });
              expect(withdrawn.statusCode, withdrawn.body).toBe(200);
            },
          );

          // The subject list: the subject has data, which the server says only on asking (409).
          await probe(
            'subject list canDelete',
            listRow?.canDelete ?? false,
            () => as(who, 'DELETE', base, { reason: 'Walk' }),
            answered(409, 'subject_has_data'),
          );

          // The membership (GET /api/auth/me): "add subject" on the subject list, at the user's own first site.
          const me = (await as(who, 'GET', '/api/auth/me')).json();
          const membership = me.memberships.find((m: { studyId: number }) => m.studyId === studyId);
          await probe(
            'membership abilities subject.write',
            membership.abilities.includes('subject.write'),
            () =>
              as(who, 'POST', `/api/studies/${studyId}/subjects`, {
                siteId: membership.sites[0]?.id ?? site1,
                consentDate: '2026-03-02',
                initials: 'AX',
              }),
            answered(201),
          );

          // Last: a signature given stays (the next roles find it signed, and may not sign again).
          await probe(
            'signature canSign',
            signature?.canSign ?? false,
            () => as(who, 'POST', `${base}/signature`, { password: DEMO_PASSWORD }),
            answered(201),
          );
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
      // 9 situations × 6 roles × 15 abilities.
      expect(walked).toBe(situations.length * roles.length * 15);
    }, 300_000);
  },
  { seed: 'demo' },
);
