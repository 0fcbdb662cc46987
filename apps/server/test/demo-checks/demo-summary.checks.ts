import { type SummaryResponse, todayInKorea } from '@cdms/contract';
import { computeVisitSchedule, type StudyDefinition } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { App } from '../../src/http/types.ts';
import { currentStudyDefinition } from '../../src/studies/study-definitions.ts';
import { buildTestApp, signIn } from '../test-app.ts';

/**
 * The study summary over the living demo against figures this file works out itself from the raw
 * tables (subjects and their statuses, the visit dates saved in the forms against the definition's
 * windows, the saved healing evaluations and PTA averages, the allocation list), in plain
 * TypeScript, not through the summary's SQL or the read model: for the data manager (every site, the
 * split by group), the monitor (sites 01 and 02) and a coordinator (site 02).
 */

const round1 = (value: number) => Math.round(value * 10) / 10;
const mean = (values: number[]) =>
  values.length ? round1(values.reduce((sum, value) => sum + value, 0) / values.length) : null;

/** Registered through test/living-demo.test.ts, which seeds the living demo once. */
export function demoSummaryChecks(database: () => DatabaseHandle): void {
  let app: App;
  let studyId: number;
  let definition: StudyDefinition;
  const today = todayInKorea();

  beforeAll(async () => {
    const { db } = database();
    app = await buildTestApp(database());
    studyId = (
      await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
    ).id;
    definition = (await currentStudyDefinition(db, studyId))?.definition as StudyDefinition;
  });

  afterAll(async () => {
    await app?.close();
  });

  async function tables(institutions?: string[]) {
    const { db } = database();
    let sitesQuery = db
      .selectFrom('sites')
      .select(['id', 'institution_number'])
      .where('study_id', '=', studyId)
      .orderBy('institution_number');
    if (institutions) sitesQuery = sitesQuery.where('institution_number', 'in', institutions);
    const sites = await sitesQuery.execute();
    const siteIds = new Set(sites.map((site) => site.id));
    const subjects = (
      await db
        .selectFrom('subjects')
        .select(['id', 'site_id', 'status'])
        .where('study_id', '=', studyId)
        .where('deleted_at', 'is', null)
        .execute()
    ).filter((subject) => siteIds.has(subject.site_id));
    const ids = subjects.length > 0 ? subjects.map((subject) => subject.id) : [0];
    const values = await db
      .selectFrom('item_values')
      .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
      .select([
        'form_instances.subject_id',
        'form_instances.visit_key',
        'form_instances.form_key',
        'item_values.item_key',
        'item_values.value',
      ])
      .where('form_instances.subject_id', 'in', ids)
      .where('form_instances.has_data', '=', true)
      .execute();
    const item = (subjectId: number, visitKey: string, formKey: string, itemKey: string): unknown =>
      values.find(
        (row) =>
          row.subject_id === subjectId &&
          row.visit_key === visitKey &&
          row.form_key === formKey &&
          row.item_key === itemKey,
      )?.value;
    const slots = await db
      .selectFrom('randomization_slots')
      .select(['subject_id', 'treatment_group'])
      .where('subject_id', 'in', ids)
      .execute();
    const groupOf = new Map(slots.map((slot) => [slot.subject_id, slot.treatment_group as string]));
    return { sites, subjects, item, groupOf };
  }

  async function get(email: string): Promise<SummaryResponse> {
    const session = await signIn(app, email);
    const response = await app.inject({
      method: 'GET',
      url: `/api/studies/${studyId}/summary`,
      headers: { cookie: session.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SummaryResponse;
  }

  async function expectSummary(email: string, institutions: string[] | undefined, withGroups: boolean) {
    const data = await tables(institutions);
    const summary = await get(email);
    expect(summary.sites.map((site) => site.siteId)).toEqual(data.sites.map((site) => site.id));
    expect(summary.groups !== undefined).toBe(withGroups);

    // Subjects by status and site: the subjects table itself.
    for (const site of data.sites) {
      const line = summary.statusBySite.find((entry) => entry.siteId === site.id);
      for (const [status, count] of Object.entries(line?.counts ?? {}))
        expect(count, `${site.institution_number} ${status}`).toBe(
          data.subjects.filter((subject) => subject.site_id === site.id && subject.status === status).length,
        );
    }
    expect(
      summary.statusBySite.reduce(
        (sum, line) => sum + Object.values(line.counts).reduce((a, b) => a + b, 0),
        0,
      ),
    ).toBe(data.subjects.length);

    // The visit matrix: the saved visit dates against the definition's windows, today in UTC+9.
    const visitDate = definition.visitDate;
    if (!visitDate) throw new Error('the demo study names its visit date');
    const expectedCells = new Map<string, Record<string, number>>();
    for (const subject of data.subjects) {
      const visits: Record<string, Record<string, Record<string, unknown>>> = {};
      for (const visit of definition.visits) {
        const date = data.item(subject.id, visit.key, visitDate.form, visitDate.item);
        if (typeof date === 'string') visits[visit.key] = { [visitDate.form]: { [visitDate.item]: date } };
      }
      for (const entry of computeVisitSchedule(definition, visits, { today })) {
        const ongoing = subject.status === 'ongoing';
        const state =
          entry.status === 'inWindow'
            ? 'inWindow'
            : entry.status === 'early' || entry.status === 'late'
              ? 'outOfWindow'
              : entry.status === 'overdue' && ongoing
                ? 'overdue'
                : (entry.status === 'due' || entry.status === 'notDue') && ongoing
                  ? 'notYetDue'
                  : null;
        if (!state) continue;
        const key = `${entry.visitKey}|${subject.site_id}`;
        const cell = expectedCells.get(key) ?? { inWindow: 0, outOfWindow: 0, overdue: 0, notYetDue: 0 };
        cell[state] = (cell[state] ?? 0) + 1;
        expectedCells.set(key, cell);
      }
    }
    for (const visit of summary.visitMatrix)
      for (const cell of visit.cells)
        expect(cell.counts, `${visit.visitKey} at ${cell.siteId}`).toEqual(
          expectedCells.get(`${visit.visitKey}|${cell.siteId}`) ?? {
            inWindow: 0,
            outOfWindow: 0,
            overdue: 0,
            notYetDue: 0,
          },
        );

    // Healing outcome by visit, and per group for the readers who may know groups.
    for (const visit of summary.healing.visits) {
      const answers = data.subjects.map((subject) => ({
        group: data.groupOf.get(subject.id) ?? null,
        outcome: data.item(subject.id, visit.visitKey, 'tympanicPhoto', 'evaluation'),
      }));
      for (const { code } of summary.healing.outcomes) {
        expect(visit.counts[code]).toBe(answers.filter((answer) => answer.outcome === code).length);
        for (const split of visit.byGroup ?? [])
          expect(split.counts[code]).toBe(
            answers.filter((answer) => answer.group === split.group && answer.outcome === code).length,
          );
      }
      expect(visit.byGroup !== undefined).toBe(withGroups);
    }

    // Key measures: n and mean of the saved PTA averages per visit, labelled as the items.
    expect(
      summary.keyMeasures.measures.map((measure) => [measure.key, measure.label.en, measure.unit]),
    ).toEqual([
      ['airAverage', 'Air conduction – Average threshold', 'dB'],
      ['boneAverage', 'Bone conduction – Average threshold', 'dB'],
    ]);
    for (const visit of summary.keyMeasures.visits)
      for (const stats of visit.stats) {
        const measured = data.subjects
          .map((subject) => data.item(subject.id, visit.visitKey, 'ptaTest', stats.measure))
          .filter((value): value is number => typeof value === 'number');
        expect(stats.n, `${visit.visitKey} ${stats.measure}`).toBe(measured.length);
        expect(stats.mean).toBe(mean(measured));
      }
    return summary;
  }

  it('counts the summary over every site for the data manager, split by group', async () => {
    const summary = await expectSummary('dm@demo.cdms', undefined, true);
    // The demo has subjects in every state the matrix counts and healing outcomes to show.
    const cells = summary.visitMatrix.flatMap((visit) => visit.cells.map((cell) => cell.counts));
    expect(cells.some((cell) => cell.inWindow > 0)).toBe(true);
    expect(
      summary.healing.visits.some((visit) => Object.values(visit.counts).some((count) => count > 0)),
    ).toBe(true);
  });

  it("counts the monitor's and a coordinator's sites only, never split by arm", async () => {
    // Whatever the study's group-visibility setting: aggregate efficacy by arm is data management's.
    await expectSummary('cra@demo.cdms', ['01', '02'], false);
    await expectSummary('crc@demo.cdms', ['02'], false);
  });
}
