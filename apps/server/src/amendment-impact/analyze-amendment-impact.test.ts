import { todayInKorea } from '@cdms/contract';
import { amendmentChangeSet, type StudyDefinition } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { amendedVersion, DECLARATIONS, itemOf } from '../../test/fixtures/amended-demo-version.ts';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import {
  type AmendmentImpactInput,
  analyzeAmendmentImpact,
  type ImpactKind,
  type ImpactRow,
  type ImpactSummary,
} from './analyze-amendment-impact.ts';
import { IMPACT_KINDS } from './impact-rows.ts';

// Subjects entered, verified, signed and frozen through the API, then one amendment that touches each
// kind of impact in a known place: the analysis must name exactly those rows, and nothing for an
// amendment of labels (which also shows it reads the stored statuses, queries and derived values as the
// saves left them).

const sortRows = (rows: readonly ImpactRow[]) =>
  [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describeWithDatabase(
  'amendment impact analysis',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    let live: StudyDefinition;
    const session: Record<string, SignedIn> = {};
    const subjects: Record<'changed' | 'frozen' | 'elsewhere', { id: number; screeningNumber: string }> =
      {} as never;
    const as = async (who: string, method: 'POST' | 'PUT', url: string, payload: object) => {
      const response = await app.inject({ method, url, headers: session[who]?.headers ?? {}, payload });
      if (response.statusCode >= 300)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const register = async (who: string, siteId: number) => {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials: 'HGD',
      });
      return { id: created.id as number, screeningNumber: created.subjectId as string };
    };
    const save = (subjectId: number, form: string, values: object, who = 'pi') =>
      as(who, 'PUT', `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/${form}`, {
        values,
        version: 0,
      });
    const analyze = async (input: Partial<AmendmentImpactInput> & Pick<AmendmentImpactInput, 'next'>) => {
      const batches: ImpactRow[][] = [];
      const summary = await analyzeAmendmentImpact(
        database().db,
        {
          studyId,
          live,
          changeSet: amendmentChangeSet(live, input.next, DECLARATIONS),
          siteEffectiveDates: new Map([
            [site1, '2020-01-01'],
            [site2, '2999-12-31'],
          ]),
          today: todayInKorea(),
          ...input,
        },
        async (rows) => {
          batches.push(rows);
        },
      );
      return { summary, batches, rows: batches.flat() };
    };
    const row = (
      subject: { id: number; screeningNumber: string },
      siteId: number,
      place: [visitKey: string | null, formKey: string | null, itemKey: string | null],
      kind: ImpactKind,
      before: ImpactRow['before'],
      after: ImpactRow['after'],
    ): ImpactRow => ({
      subjectId: subject.id,
      siteId,
      screeningNumber: subject.screeningNumber,
      visitKey: place[0],
      formKey: place[1],
      itemKey: place[2],
      kind,
      before,
      after,
    });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'crc', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
      const current = await currentStudyDefinition(database().db, studyId);
      if (!current) throw new Error('the demo study has no definition');
      live = current.definition;

      // A subject whose every form below the amendment touches: a pulse above the range (a query is
      // open), a weight inside it, a result that is re-coded; two items verified, the casebook signed.
      subjects.changed = await register('pi', site1);
      await save(subjects.changed.id, 'demographicInfo', { birthDate: '1980-05-05', gender: 'M' });
      await save(subjects.changed.id, 'bodyMeasurement', { height: 170, weight: 75 });
      await save(subjects.changed.id, 'medicalHistory', {
        histories: [
          { content: 'Otitis media', startDate: '2020-01-01', ongoing: true },
          { content: 'Rhinitis', startDate: '2021-05-01', endDate: '2021-04-01' },
        ],
      });
      await save(subjects.changed.id, 'vitalSigns', {
        measurementDate: '2025-03-04',
        bloodPressureSystolic: 120,
        bloodPressureDiastolic: 80,
        heartRate: 105,
        bodyTemperature: 36.5,
        result: 'abnormalNcs',
        opinion: 'Resting',
      });
      // A white cell count above the site's range: the save's lab range check opens a query, which the
      // analysis must see as still failing (the engine alone does not know the ranges).
      await as('dm', 'POST', `/api/studies/${studyId}/lab-ranges`, {
        siteId: site1,
        testKey: 'wbc',
        unit: '10³/µL',
        low: 4,
        high: 10,
        sex: null,
        ageMin: null,
        ageMax: null,
        effectiveFrom: '2025-01-01',
      });
      await save(subjects.changed.id, 'labTest', { specimenDate: '2025-03-04', wbcResult: 20 });
      await as('cra', 'POST', `/api/studies/${studyId}/sdv/verify`, {
        subjectPk: subjects.changed.id,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemKeys: ['result', 'heartRate'],
      });
      await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subjects.changed.id}/signature`, {
        password: DEMO_PASSWORD,
      });

      // A subject whose complete vital signs are frozen.
      subjects.frozen = await register('pi', site1);
      await save(subjects.frozen.id, 'vitalSigns', {
        bloodPressureSystolic: 120,
        bloodPressureDiastolic: 80,
        heartRate: 70,
        bodyTemperature: 36.5,
        result: 'normal',
      });
      await as('dm', 'POST', `/api/studies/${studyId}/holds`, {
        kind: 'frozen',
        target: { level: 'form', subjectPk: subjects.frozen.id, visitKey: 'v1', formKey: 'vitalSigns' },
        reason: 'Interim analysis',
      });

      // A subject at a site whose approval takes effect later, its demographics without the sex.
      subjects.elsewhere = await register('crc', site2);
      await save(subjects.elsewhere.id, 'demographicInfo', { birthDate: '1980-05-05' }, 'crc');
    }, 120_000);
    afterAll(async () => {
      await app.close();
    });

    it('names each impact of the amendment exactly, subject by subject', async () => {
      const next = amendedVersion(live);
      expect(amendmentChangeSet(live, next, DECLARATIONS)).toMatchObject({ ready: true });
      const { rows, summary } = await analyze({ next });
      const { changed, frozen, elsewhere } = subjects;
      const vitals = (item: string | null) => ['v1', 'vitalSigns', item] as [string, string, string | null];
      const expected: ImpactRow[] = [
        row(
          changed,
          site1,
          ['v1', 'bodyMeasurement', 'weight'],
          'queryOpens',
          null,
          'bodyMeasurement.weight.range',
        ),
        row(changed, site1, ['v1', 'demographicInfo', 'age'], 'derivedChanges', 44, 45),
        row(
          changed,
          site1,
          ['v1', 'medicalHistory', 'histories[1].stopDate'],
          'valueRenamed',
          'histories[1].endDate',
          'histories[1].stopDate',
        ),
        row(changed, site1, vitals(null), 'formIncomplete', 'alert', 'dash'),
        row(changed, site1, vitals('bloodPressureDiastolic'), 'valueConverted', 80, 80),
        row(changed, site1, vitals('heartRate'), 'queryCloses', 'vitalSigns.heartRate.range', null),
        row(changed, site1, vitals('measurementDate'), 'valueRetired', '2025-03-04', null),
        row(changed, site1, vitals('remark'), 'valueRenamed', 'opinion', 'remark'),
        row(changed, site1, vitals('result'), 'valueRecoded', 'abnormalNcs', 'ncs'),
        row(changed, site1, vitals('result'), 'sdvInvalidated', 'verified', 'changed'),
        row(changed, site1, [null, null, null], 'signatureInvalidated', null, null),
        row(frozen, site1, vitals(null), 'formIncomplete', 'check', 'dash'),
        row(frozen, site1, vitals(null), 'heldFormTouched', null, { kind: 'frozen', level: 'form' }),
        row(frozen, site1, vitals('bloodPressureDiastolic'), 'valueConverted', 80, 80),
        row(elsewhere, site2, ['v1', 'demographicInfo', null], 'formComplete', 'dash', 'check'),
        row(elsewhere, site2, ['v1', 'demographicInfo', 'age'], 'derivedChanges', 44, 45),
        row(elsewhere, site2, [null, null, null], 'siteNotInEffect', null, '2999-12-31'),
      ];
      // The query on the renamed group item's row is open, and stays so (no row for it); so does the lab
      // range's query.
      const queries = await database()
        .db.selectFrom('queries')
        .select(['item_path', 'check_id', 'status'])
        .where('subject_id', '=', changed.id)
        .where('form_key', 'in', ['medicalHistory', 'labTest'])
        .orderBy('id')
        .execute();
      expect(queries).toEqual([
        {
          item_path: 'v1.medicalHistory.histories[1].endDate',
          check_id: 'medicalHistory.endBeforeStart',
          status: 'open',
        },
        {
          item_path: 'v1.labTest.wbcResult',
          check_id: 'labTest.outOfRangeWithoutSignificance',
          status: 'open',
        },
      ]);
      // In subject order, each subject's rows in the order of their place.
      expect(rows).toEqual(expected);
      expect(summary.subjects).toBe(3);
      const counts = Object.fromEntries(IMPACT_KINDS.map((kind) => [kind, summary.byKind[kind]]));
      expect(counts).toEqual({
        valueRenamed: { rows: 2, subjects: 1 },
        valueConverted: { rows: 2, subjects: 2 },
        valueRecoded: { rows: 1, subjects: 1 },
        valueRetired: { rows: 1, subjects: 1 },
        formIncomplete: { rows: 2, subjects: 2 },
        formComplete: { rows: 1, subjects: 1 },
        queryOpens: { rows: 1, subjects: 1 },
        queryCloses: { rows: 1, subjects: 1 },
        derivedChanges: { rows: 2, subjects: 2 },
        sdvInvalidated: { rows: 1, subjects: 1 },
        signatureInvalidated: { rows: 1, subjects: 1 },
        heldFormTouched: { rows: 1, subjects: 1 },
        siteNotInEffect: { rows: 1, subjects: 1 },
      });
    });

    it('retires the values of removed forms, derived ones too, and closes their queries', async () => {
      const next = structuredClone(live);
      next.forms = next.forms.filter(
        (form) => form.key !== 'medicalHistory' && form.key !== 'bodyMeasurement',
      );
      for (const visit of next.visits)
        visit.forms = visit.forms.filter((form) => form !== 'medicalHistory' && form !== 'bodyMeasurement');
      const { changed } = subjects;
      const { rows } = await analyze({
        next,
        changeSet: amendmentChangeSet(live, next, {}),
        siteEffectiveDates: new Map([
          [site1, '2020-01-01'],
          [site2, '2020-01-01'],
        ]),
      });
      const body = (item: string) => ['v1', 'bodyMeasurement', item] as [string, string, string];
      const history = (item: string) => ['v1', 'medicalHistory', item] as [string, string, string];
      expect(rows).toEqual([
        row(changed, site1, body('bmi'), 'valueRetired', 26, null),
        row(changed, site1, body('height'), 'valueRetired', 170, null),
        row(changed, site1, body('weight'), 'valueRetired', 75, null),
        row(changed, site1, history('histories[0].content'), 'valueRetired', 'Otitis media', null),
        row(changed, site1, history('histories[0].ongoing'), 'valueRetired', true, null),
        row(changed, site1, history('histories[0].startDate'), 'valueRetired', '2020-01-01', null),
        row(changed, site1, history('histories[1].content'), 'valueRetired', 'Rhinitis', null),
        row(changed, site1, history('histories[1].endDate'), 'valueRetired', '2021-04-01', null),
        row(
          changed,
          site1,
          history('histories[1].endDate'),
          'queryCloses',
          'medicalHistory.endBeforeStart',
          null,
        ),
        row(changed, site1, history('histories[1].startDate'), 'valueRetired', '2021-05-01', null),
        row(changed, site1, [null, null, null], 'signatureInvalidated', null, null),
      ]);
    });

    it('finds nothing to change for an amendment of labels only, wherever the approval is in effect', async () => {
      const next = structuredClone(live);
      itemOf(next, 'vitalSigns', 'heartRate').label = { ko: '심박수', en: 'Heart rate' };
      expect(amendmentChangeSet(live, next, {}).changes).toEqual([]);
      const { rows, summary } = await analyze({
        next,
        changeSet: amendmentChangeSet(live, next, {}),
        siteEffectiveDates: new Map([
          [site1, '2020-01-01'],
          [site2, todayInKorea()],
        ]),
      });
      expect(rows).toEqual([]);
      expect(summary.subjects).toBe(3);
      for (const kind of IMPACT_KINDS) expect(summary.byKind[kind], kind).toEqual({ rows: 0, subjects: 0 });
    });

    it('reports a site without an approval date as not in effect', async () => {
      const next = structuredClone(live);
      const { rows } = await analyze({
        next,
        changeSet: amendmentChangeSet(live, next, {}),
        siteEffectiveDates: new Map([[site1, todayInKorea()]]),
      });
      expect(rows).toEqual([
        row(subjects.elsewhere, site2, [null, null, null], 'siteNotInEffect', null, null),
      ]);
    });

    it('gives the same rows and counts batch by batch as in one batch', async () => {
      const next = amendedVersion(live);
      const whole = await analyze({ next });
      const single = await analyze({ next, batchSize: 1 });
      expect(whole.batches).toHaveLength(1);
      expect(single.batches.map((batch) => batch.map((entry) => entry.subjectId)[0])).toEqual([
        subjects.changed.id,
        subjects.frozen.id,
        subjects.elsewhere.id,
      ]);
      expect(single.rows).toEqual(whole.rows);
      expect(sortRows(single.rows)).toEqual(sortRows(whole.rows));
      expect(single.summary).toEqual(whole.summary satisfies ImpactSummary);
    });
  },
  { seed: 'demo' },
);
