import {
  type DashboardResponse,
  type SubjectInfoResponse,
  todayInKorea,
  type VisitAlarmListResponse,
} from '@cdms/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { App } from '../../src/http/types.ts';
import { NOT_ENTERED } from '../../src/read-model/dashboard-figures.ts';
import { loadSubjectFacts } from '../../src/read-model/subject-facts.ts';
import { currentStudyDefinition } from '../../src/studies/study-definitions.ts';
import { classifyVisit, compareAlarms, dueSoonDaysOf } from '../../src/visit-alarms/classify-visit-alarms.ts';
import { buildTestApp, signIn } from '../test-app.ts';

/**
 * The numbers a person sees first — dashboard, subject-info popup and subject list over the living
 * demo — against counts this test takes straight from the tables with its own SQL (not through
 * the code that computes them for the screens).
 */

interface ListRow {
  subjectId: string;
  registrationNumber: string | null;
  adverseReaction: number;
  unresolvedQuery: number;
  initialSignature: 'done' | 'pending';
}

/** Registered through test/living-demo.test.ts, which seeds the living demo once for these checks and the seed's. */
export function demoFigureChecks(database: () => DatabaseHandle): void {
  let app: App;
  let studyId: number;

  beforeAll(async () => {
    const { db } = database();
    app = await buildTestApp(database());
    studyId = (
      await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
    ).id;
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Counts from the tables, for the subjects at `institutions` (every site when omitted). */
  async function countsFromTables(institutions?: string[]) {
    const { db } = database();
    let subjectQuery = db
      .selectFrom('subjects')
      .innerJoin('sites', 'sites.id', 'subjects.site_id')
      .select(['subjects.id', 'subjects.status'])
      .where('subjects.study_id', '=', studyId)
      .where('subjects.deleted_at', 'is', null);
    if (institutions) subjectQuery = subjectQuery.where('sites.institution_number', 'in', institutions);
    const subjects = await subjectQuery.execute();
    const ids = subjects.map((subject) => subject.id);
    const statuses: Record<string, number> = {
      screening: 0,
      screening_failure: 0,
      ongoing: 0,
      complete: 0,
      dropout: 0,
    };
    for (const subject of subjects) statuses[subject.status] = (statuses[subject.status] ?? 0) + 1;
    const randomized = await db
      .selectFrom('randomization_slots')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('subject_id', 'in', ids)
      .executeTakeFirstOrThrow();
    const queries = await db
      .selectFrom('queries')
      .select(['kind', 'status'])
      .where('subject_id', 'in', ids)
      .execute();
    const queryCount = (kind: string, status: string) =>
      queries.filter((query) => query.kind === kind && query.status === status).length;
    const events = await db
      .selectFrom('item_values')
      .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
      .select(['form_instances.subject_id', 'item_values.value'])
      .where('form_instances.subject_id', 'in', ids)
      .where('form_instances.form_key', '=', 'adverseEvent')
      .where('item_values.item_key', '=', 'events')
      .execute();
    const rows = events.flatMap((row) =>
      (row.value as { serious?: string }[]).map((event) => ({ subjectId: row.subject_id, ...event })),
    );
    const savedForms = await db
      .selectFrom('form_instances')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('subject_id', 'in', ids)
      .where('has_data', '=', true)
      .executeTakeFirstOrThrow();
    const validSignatures = await db
      .selectFrom('signatures')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('subject_id', 'in', ids)
      .where('invalidated_at', 'is', null)
      .executeTakeFirstOrThrow();
    const serious = rows.filter((event) => event.serious === 'Y');
    return {
      total: subjects.length,
      statuses,
      randomized: Number(randomized.count),
      queries: {
        system: { open: queryCount('system', 'open'), answered: queryCount('system', 'answered') },
        manual: { open: queryCount('manual', 'open'), answered: queryCount('manual', 'answered') },
      },
      safety: {
        adverseEvents: rows.length,
        seriousAdverseEvents: serious.length,
        subjectsWithAdverseEvents: new Set(rows.map((event) => event.subjectId)).size,
        subjectsWithSeriousAdverseEvents: new Set(serious.map((event) => event.subjectId)).size,
      },
      savedForms: Number(savedForms.count),
      validSignatures: Number(validSignatures.count),
    };
  }

  async function get<T>(email: string, url: string): Promise<T> {
    const session = await signIn(app, email);
    const response = await app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  }

  it('the data manager sees every site: dashboard, popup and list equal the tables', async () => {
    const expected = await countsFromTables();
    // The demo is meant to show something in every panel.
    expect(expected.total).toBeGreaterThan(25);
    expect(expected.safety.seriousAdverseEvents).toBeGreaterThan(0);
    expect(expected.queries.system.open).toBeGreaterThan(0);

    const dashboard = await get<DashboardResponse>('dm@demo.cdms', `/api/studies/${studyId}/dashboard`);
    expect(dashboard.subjects).toEqual({
      total: expected.total,
      randomized: expected.randomized,
      statuses: expected.statuses,
    });
    expect(dashboard.queries).toEqual(expected.queries);
    expect(dashboard.safety).toEqual(expected.safety);
    const sumOf = (groups: { total: number }[]) => groups.reduce((sum, group) => sum + group.total, 0);
    expect(sumOf(dashboard.targetStatus.byGender)).toBe(expected.total);
    expect(sumOf(dashboard.targetStatus.byAge)).toBe(expected.total);
    expect(dashboard.registrations.months.reduce((sum, month) => sum + month.count, 0)).toBe(expected.total);

    const info = await get<SubjectInfoResponse>('dm@demo.cdms', `/api/studies/${studyId}/subject-info`);
    expect(info.openQueries).toBe(expected.queries.system.open + expected.queries.manual.open);
    expect(info.answeredQueries).toBe(expected.queries.system.answered + expected.queries.manual.answered);
    expect(info.seriousAdverseEvents).toBe(expected.safety.seriousAdverseEvents);
    expect(info.ecrfPages).toBe(expected.savedForms);

    const list = await get<{ subjects: ListRow[]; total: number }>(
      'dm@demo.cdms',
      `/api/studies/${studyId}/subjects?size=100`,
    );
    expect(list.total).toBe(expected.total);
    expect(list.subjects).toHaveLength(expected.total);
    const sum = (pick: (row: ListRow) => number) =>
      list.subjects.reduce((total, row) => total + pick(row), 0);
    expect(sum((row) => row.adverseReaction)).toBe(expected.safety.adverseEvents);
    expect(sum((row) => row.unresolvedQuery)).toBe(
      expected.queries.system.open +
        expected.queries.system.answered +
        expected.queries.manual.open +
        expected.queries.manual.answered,
    );
    expect(list.subjects.filter((row) => row.registrationNumber !== null)).toHaveLength(expected.randomized);
    expect(list.subjects.filter((row) => row.initialSignature === 'done')).toHaveLength(
      expected.validSignatures,
    );
  });

  it("a coordinator's dashboard counts only the subjects of the coordinator's site", async () => {
    const expected = await countsFromTables(['02']);
    expect(expected.total).toBeGreaterThan(0);
    const dashboard = await get<DashboardResponse>('crc@demo.cdms', `/api/studies/${studyId}/dashboard`);
    expect(dashboard.subjects).toEqual({
      total: expected.total,
      randomized: expected.randomized,
      statuses: expected.statuses,
    });
    expect(dashboard.queries).toEqual(expected.queries);
    expect(dashboard.safety).toEqual(expected.safety);
    const list = await get<{ total: number }>('crc@demo.cdms', `/api/studies/${studyId}/subjects`);
    expect(list.total).toBe(expected.total);
  });

  it.each([
    ['PI', 'pi@demo.cdms'],
    ['SI', 'si@demo.cdms'],
    ['CRC at site 02', 'crc@demo.cdms'],
    ['CRC at site 03', 'crc3@demo.cdms'],
    ['CRA', 'cra@demo.cdms'],
    ['DM', 'dm@demo.cdms'],
    ['ADMIN', 'admin@demo.cdms'],
  ])(
    "every chart's parts add up to the %s's subject total, a missing value counted as not entered",
    async (_role, email) => {
      const dashboard = await get<DashboardResponse>(email, `/api/studies/${studyId}/dashboard`);
      const { total } = dashboard.subjects;
      expect(total).toBeGreaterThan(0);
      const sumOf = (parts: readonly number[]) => parts.reduce((sum, part) => sum + part, 0);
      expect(sumOf(Object.values(dashboard.subjects.statuses))).toBe(total);
      for (const chart of [dashboard.targetStatus.byGender, dashboard.targetStatus.byAge]) {
        expect(sumOf(chart.map((group) => group.total))).toBe(total);
        expect(sumOf(chart.map((group) => group.randomized))).toBe(dashboard.subjects.randomized);
        // Each doughnut's segments (the statuses) add up to its centre's total.
        for (const group of chart) expect(sumOf(Object.values(group.statuses)), group.key).toBe(group.total);
        // Subjects without demographics have a part of their own, whatever the chart.
        expect(chart.at(-1)?.key).toBe(NOT_ENTERED);
      }
      // The demo always has someone registered today, without demographics yet, somewhere in scope.
      const notEntered = (chart: readonly { key: string; total: number }[]) =>
        chart.find((group) => group.key === NOT_ENTERED)?.total;
      expect(notEntered(dashboard.targetStatus.byAge)).toBe(notEntered(dashboard.targetStatus.byGender));
      expect(sumOf(dashboard.registrations.months.map((month) => month.count))).toBe(total);
      // The monthly chart per institution: the institutions' lines add up to the same total.
      let perSite = 0;
      for (const site of dashboard.sites) {
        const narrowed = await get<DashboardResponse>(
          email,
          `/api/studies/${studyId}/dashboard?site=${site.id}`,
        );
        expect(narrowed.subjects.total).toBe(total);
        perSite += sumOf(narrowed.registrations.months.map((month) => month.count));
      }
      expect(perSite).toBe(total);
    },
  );

  it("lists the same alarms in SQL as classifyVisit finds over every subject's facts, in the same order", async () => {
    const { db } = database();
    const current = await currentStudyDefinition(db, studyId);
    if (!current) throw new Error('no definition');
    const today = todayInKorea();
    const facts = await loadSubjectFacts(db, {
      studyId,
      sites: 'all',
      definition: current.definition,
      today,
    });
    const dueSoonDays = dueSoonDaysOf(current.definition);
    const expected = facts
      .flatMap((subject) =>
        subject.schedule.flatMap((entry) => {
          const alarm = classifyVisit(entry, subject.status, today, dueSoonDays);
          return alarm
            ? [
                {
                  subjectId: subject.screeningNumber,
                  visitKey: entry.visitKey,
                  actualDate: entry.actualDate,
                  ...alarm,
                },
              ]
            : [];
        }),
      )
      .sort(compareAlarms);
    expect(expected.length).toBeGreaterThan(3);
    const listed = await get<VisitAlarmListResponse>(
      'dm@demo.cdms',
      `/api/studies/${studyId}/visit-alarms?size=100`,
    );
    expect(listed.total).toBe(expected.length);
    const shown = (alarms: VisitAlarmListResponse['alarms']) =>
      alarms.map((alarm) => ({
        subjectId: alarm.subject.subjectId,
        visitKey: alarm.visitKey,
        actualDate: alarm.actualDate,
        state: alarm.state,
        days: alarm.days,
        timing: alarm.timing,
      }));
    expect(shown(listed.alarms)).toEqual(expected.slice(0, 100));
    // Pages of 10 laid end to end give the same list: a page that spans two states joins their runs.
    const paged: VisitAlarmListResponse['alarms'] = [];
    for (let page = 1; (page - 1) * 10 < expected.length; page += 1) {
      const next = await get<VisitAlarmListResponse>(
        'dm@demo.cdms',
        `/api/studies/${studyId}/visit-alarms?size=10&page=${page}`,
      );
      paged.push(...next.alarms);
    }
    expect(shown(paged)).toEqual(expected);
  });
}
