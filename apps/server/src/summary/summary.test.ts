import { type SummaryResponse, todayInKorea } from '@cdms/contract';
import { addDays, tmPerforationStudy } from '@cdms/study';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * The summary over data this test saves through the API (an empty demo study: accounts and sites):
 * two subjects randomized 30 days ago (site 01 and site 02) with dated visits, PTA at V1 and V2 and
 * healing evaluations, and one subject still in screening at site 01. Every expected figure is worked
 * out here from what was saved (dates against the definition's windows, averages of the thresholds);
 * the split by group appears only for readers allowed to know groups, and each reader sees their sites.
 */

interface Saved {
  siteInstitution: '01' | '02';
  status: 'ongoing' | 'screening';
  group: string | null;
  visitDates: Record<string, string>;
  /** Air and bone thresholds at 500, 1000, 2000, 4000 Hz per PTA visit; a missing section is not done. */
  pta: Record<string, { air?: number[]; bone?: number[] }>;
  healing: Record<string, string>;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const mean = (values: number[]) =>
  values.length ? round1(values.reduce((sum, value) => sum + value, 0) / values.length) : null;
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return round1(
    sorted.length % 2
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2,
  );
}
/** The form's derived average: all four thresholds, to one decimal. */
const average = (thresholds: number[] | undefined) =>
  thresholds && thresholds.length === 4 ? round1(thresholds.reduce((a, b) => a + b, 0) / 4) : null;

describeWithDatabase(
  'the study summary over data the test saves',
  (database) => {
    let app: App;
    let studyId: number;
    let siteOf: (institution: string) => number;
    const session: Record<string, SignedIn> = {};
    const today = todayInKorea();
    const v2Date = addDays(today, -30) as string;
    const day = (offset: number) => addDays(v2Date, offset) as string;
    const subjects: Saved[] = [];

    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const summary = async (who: string, query = ''): Promise<SummaryResponse> => {
      const response = await as(who, 'GET', `/api/studies/${studyId}/summary${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

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

    async function enter(who: 'pi' | 'crc', subject: Omit<Saved, 'group'>, randomize: boolean) {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: siteOf(subject.siteInstitution),
        consentDate: day(-60),
        initials: 'SUM',
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      for (const [visit, visitDate] of Object.entries(subject.visitDates))
        await save(who, id, visit, 'visitDay', { visitDate });
      for (const [visit, sections] of Object.entries(subject.pta)) {
        const values: Record<string, number | boolean> = {};
        for (const prefix of ['air', 'bone'] as const)
          (sections[prefix] ?? []).forEach((threshold, index) => {
            values[`${prefix}${[500, 1000, 2000, 4000][index]}`] = threshold;
          });
        await save(who, id, visit, 'ptaTest', values);
      }
      for (const [visit, evaluation] of Object.entries(subject.healing))
        await save(who, id, visit, 'tympanicPhoto', {
          perforationDiameter: 1,
          regeneration: 'Y',
          evaluation,
        });
      let group: string | null = null;
      if (randomize) {
        await save(who, id, 'v2', 'inclusionExclusionEval', { eligible: 'Y' });
        const randomized = await as(who, 'POST', `/api/studies/${studyId}/subjects/${id}/randomize`);
        expect(randomized.statusCode, randomized.body).toBe(201);
        group = randomized.json().group;
        expect(group).not.toBeNull();
      }
      subjects.push({ ...subject, group });
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      siteOf = demo.siteId;
      await as('dm', 'POST', `/api/studies/${studyId}/randomization/generate`, {
        perSite: 4,
        seed: 'summary',
        siteIds: [siteOf('01'), siteOf('02')],
      });

      await enter(
        'pi',
        {
          siteInstitution: '01',
          status: 'ongoing',
          visitDates: { v1: day(-10), v2: v2Date, v4: day(28) },
          pta: { v1: { air: [20, 30, 40, 50], bone: [10, 10, 20, 20] }, v2: { air: [10, 20, 30, 40] } },
          healing: { v4: 'completeHealing' },
        },
        true,
      );
      await enter(
        'crc',
        {
          siteInstitution: '02',
          status: 'ongoing',
          visitDates: { v1: day(-40), v2: v2Date },
          pta: {
            v1: { air: [40, 40, 40, 45], bone: [20, 25, 20, 25] },
            v2: { air: [30, 30, 35, 30], bone: [15, 15, 20, 20] },
          },
          healing: { v4: 'partialHealing', v5: 'failToHeal' },
        },
        true,
      );
      await enter(
        'pi',
        {
          siteInstitution: '01',
          status: 'screening',
          visitDates: { v1: today },
          pta: { v1: { air: [60, 60, 65, 70] } },
          healing: {},
        },
        false,
      );
    });
    afterAll(async () => {
      await app?.close();
    });

    /** A scheduled visit's state for a saved subject, from its dates and the definition's window. */
    function completionOf(subject: Saved, visitKey: string) {
      const visit = tmPerforationStudy.visits.find((entry) => entry.key === visitKey);
      const window = visit?.window;
      const anchor = window ? subject.visitDates[window.anchorVisit] : undefined;
      if (!window || !anchor) return null;
      const expected = addDays(anchor, window.offsetDays) as string;
      const earliest = addDays(expected, -window.minusDays) as string;
      const latest = addDays(expected, window.plusDays) as string;
      const actual = subject.visitDates[visitKey];
      if (actual) return actual < earliest || actual > latest ? 'outOfWindow' : 'inWindow';
      if (subject.status !== 'ongoing') return null;
      return latest < today ? 'overdue' : 'notYetDue';
    }

    function expectedFor(institutions: string[], withGroups: boolean) {
      const mine = subjects.filter((subject) => institutions.includes(subject.siteInstitution));
      const groupsOf = (group: string | null) =>
        group === null ? mine : mine.filter((subject) => subject.group === group);
      const scheduled = tmPerforationStudy.visits.filter((visit) => visit.window).map((visit) => visit.key);
      const healingVisits = ['v4', 'v5', 'v6'];
      const outcomes = ['partialHealing', 'completeHealing', 'failToHeal'];
      const healingCounts = (visitKey: string, group: string | null) =>
        Object.fromEntries(
          outcomes.map((code) => [
            code,
            groupsOf(group).filter((subject) => subject.healing[visitKey] === code).length,
          ]),
        );
      const values = (visitKey: string, prefix: 'air' | 'bone', group: string | null) =>
        groupsOf(group)
          .map((subject) => average(subject.pta[visitKey]?.[prefix]))
          .filter((value): value is number => value !== null);
      const statsOf = (visitKey: string, group: string | null) =>
        (['air', 'bone'] as const).map((prefix) => {
          const measured = values(visitKey, prefix, group);
          return {
            measure: `${prefix}Average`,
            n: measured.length,
            mean: mean(measured),
            median: median(measured),
          };
        });
      const changesOf = (group: string | null) =>
        (['air', 'bone'] as const).map((prefix) => {
          const pairs = groupsOf(group)
            .map((subject) => [average(subject.pta.v1?.[prefix]), average(subject.pta.v2?.[prefix])])
            .filter((pair): pair is [number, number] => pair[0] !== null && pair[1] !== null);
          return {
            measure: `${prefix}Average`,
            n: pairs.length,
            meanFrom: mean(pairs.map((pair) => pair[0])),
            meanTo: mean(pairs.map((pair) => pair[1])),
            meanChange: mean(pairs.map((pair) => pair[1] - pair[0])),
          };
        });
      const groups = ['treatment', 'control'];
      return {
        statusBySite: institutions.map((institution) => ({
          siteId: siteOf(institution),
          counts: Object.fromEntries(
            ['screening', 'screening_failure', 'ongoing', 'complete', 'dropout'].map((status) => [
              status,
              mine.filter((subject) => subject.siteInstitution === institution && subject.status === status)
                .length,
            ]),
          ),
        })),
        visitMatrix: scheduled.map((visitKey) => ({
          visitKey,
          cells: institutions.map((institution) => {
            const states = mine
              .filter((subject) => subject.siteInstitution === institution)
              .map((subject) => completionOf(subject, visitKey));
            return {
              siteId: siteOf(institution),
              counts: Object.fromEntries(
                ['inWindow', 'outOfWindow', 'overdue', 'notYetDue'].map((state) => [
                  state,
                  states.filter((entry) => entry === state).length,
                ]),
              ),
            };
          }),
        })),
        healing: healingVisits.map((visitKey) => ({
          visitKey,
          counts: healingCounts(visitKey, null),
          ...(withGroups
            ? { byGroup: groups.map((group) => ({ group, counts: healingCounts(visitKey, group) })) }
            : {}),
        })),
        keyMeasures: ['v1', 'v2'].map((visitKey) => ({
          visitKey,
          stats: statsOf(visitKey, null),
          ...(withGroups
            ? { byGroup: groups.map((group) => ({ group, stats: statsOf(visitKey, group) })) }
            : {}),
        })),
        change: {
          overall: changesOf(null),
          ...(withGroups ? { byGroup: groups.map((group) => ({ group, changes: changesOf(group) })) } : {}),
        },
      };
    }

    function figuresOf(answer: SummaryResponse) {
      return {
        statusBySite: answer.statusBySite,
        visitMatrix: answer.visitMatrix.map(({ visitKey, cells }) => ({ visitKey, cells })),
        healing: answer.healing.visits.map(({ visitLabel: _label, ...rest }) => rest),
        keyMeasures: answer.keyMeasures.visits.map(({ visitLabel: _label, ...rest }) => rest),
        change: answer.keyMeasures.change
          ? {
              overall: answer.keyMeasures.change.overall,
              ...(answer.keyMeasures.change.byGroup ? { byGroup: answer.keyMeasures.change.byGroup } : {}),
            }
          : null,
      };
    }

    describe('while the study shows groups', () => {
      it('counts every figure over both sites for the monitor, without the split by arm', async () => {
        const answer = await summary('cra');
        expect(answer.sites.map((site) => site.siteId)).toEqual([siteOf('01'), siteOf('02')]);
        // Seeing a subject's group is not comparing the arms' outcomes (issue 43 item 11).
        expect(answer.groups).toBeUndefined();
        expect(figuresOf(answer)).toEqual(expectedFor(['01', '02'], false));
        expect(answer.keyMeasures.change?.fromVisit.visitKey).toBe('v1');
        expect(answer.keyMeasures.change?.toVisit.visitKey).toBe('v2');
        // The figures are not all zero: the data saved shows in them.
        expect(answer.statusBySite.reduce((sum, site) => sum + site.counts.ongoing, 0)).toBe(2);
        expect(answer.keyMeasures.change?.overall[0]?.n).toBe(2);
      });

      it("shows the coordinator only their site's subjects, and not by arm", async () => {
        const answer = await summary('crc');
        expect(answer.sites.map((site) => site.siteId)).toEqual([siteOf('02')]);
        expect(figuresOf(answer)).toEqual(expectedFor(['02'], false));
        for (const who of ['cra', 'crc', 'pi']) {
          const response = await as(who, 'GET', `/api/studies/${studyId}/summary`);
          expect(response.statusCode).toBe(200);
          expect(response.body, who).not.toMatch(/group|treatment|control/i);
        }
      });

      it('splits by arm for the data manager only', async () => {
        const answer = await summary('dm');
        expect(answer.groups?.map((group) => group.code)).toEqual(['treatment', 'control']);
        expect(figuresOf(answer)).toEqual(expectedFor(['01', '02', '03'], true));
      });

      it('narrows to the site asked for; another site is 404, a bad site id 400', async () => {
        expect(figuresOf(await summary('dm', `?siteId=${siteOf('01')}`))).toEqual(expectedFor(['01'], true));
        expect(
          (await as('crc', 'GET', `/api/studies/${studyId}/summary?siteId=${siteOf('01')}`)).statusCode,
        ).toBe(404);
        const bad = await as('dm', 'GET', `/api/studies/${studyId}/summary?siteId=abc`);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.code).toBeTruthy();
      });
    });

    describe('once the study hides groups from all but data management', () => {
      beforeAll(async () => {
        // Groups are already in the forms here, so the setting's route refuses to narrow it (409
        // groups_in_forms): set the study as one blinded from its start would be.
        await database()
          .db.updateTable('studies')
          .set({ group_visible_roles: ['DM'], show_randomization_group: false })
          .where('id', '=', studyId)
          .execute();
      });

      it('leaves every trace of the split out of the answer for the monitor and the site', async () => {
        for (const who of ['cra', 'crc', 'pi']) {
          const response = await as(who, 'GET', `/api/studies/${studyId}/summary`);
          expect(response.statusCode).toBe(200);
          expect(response.body).not.toMatch(/group|treatment|control/i);
        }
        expect(figuresOf(await summary('cra'))).toEqual(expectedFor(['01', '02'], false));
      });

      it('still splits for the data manager, who may see groups', async () => {
        const answer = await summary('dm');
        expect(answer.groups).toBeDefined();
        expect(figuresOf(answer)).toEqual(expectedFor(['01', '02', '03'], true));
      });

      it('does not split for a blinded data manager (no role sees groups)', async () => {
        await database()
          .db.updateTable('studies')
          .set({ group_visible_roles: [] })
          .where('id', '=', studyId)
          .execute();
        const response = await as('dm', 'GET', `/api/studies/${studyId}/summary`);
        expect(response.statusCode).toBe(200);
        expect(response.body).not.toMatch(/group|treatment|control/i);
        expect(figuresOf(response.json())).toEqual(expectedFor(['01', '02', '03'], false));
      });
    });

    it('refuses strangers to the study with 404 and a signed-out caller with 401', async () => {
      const other = await as('crc', 'GET', '/api/studies/999999/summary');
      expect(other.statusCode).toBe(404);
      const anonymous = await app.inject({ method: 'GET', url: `/api/studies/${studyId}/summary` });
      expect(anonymous.statusCode).toBe(401);
    });
  },
  { seed: 'demo' },
);
