import {
  type AdverseEventsReport,
  type EnrollmentReport,
  type MissingFormsReport,
  type ProtocolDeviationsReport,
  type QueryAgeBucket,
  type QueryAgingReport,
  todayInKorea,
} from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { App } from '../../src/http/types.ts';
import { enrollmentTargetOf } from '../../src/reports/enrollment-report.ts';
import { currentStudyDefinition, studyDefinitionOfVersion } from '../../src/studies/study-definitions.ts';
import { buildTestApp, signIn } from '../test-app.ts';

/**
 * The five reports over the living demo against numbers this file works out itself from the raw
 * tables (subjects, randomization slots, form instances, item values, queries and their messages),
 * in plain TypeScript, not through the reports' SQL: for the data manager (every site) and for a
 * coordinator of one site (only that site's rows).
 */

const DAY_MS = 86_400_000;
const koreanDay = (at: Date | string): string =>
  new Date(new Date(at).getTime() + 9 * 3600_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return Math.round((value ?? 0) * 10) / 10;
}

function bucketOf(days: number): QueryAgeBucket {
  if (days <= 7) return '0-7';
  if (days <= 14) return '8-14';
  if (days <= 30) return '15-30';
  return '31+';
}

/** Registered through test/living-demo.test.ts, which seeds the living demo once. */
export function demoReportChecks(database: () => DatabaseHandle): void {
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

  /** Everything the expected figures need, read plainly from the tables for the sites given. */
  async function tables(institutions?: string[]) {
    const { db } = database();
    let sitesQuery = db
      .selectFrom('sites')
      .select(['id', 'code', 'institution_number', 'enrollment_target'])
      .where('study_id', '=', studyId)
      .orderBy('institution_number');
    if (institutions) sitesQuery = sitesQuery.where('institution_number', 'in', institutions);
    const sites = await sitesQuery.execute();
    const siteCode = new Map(sites.map((site) => [site.id, site.code]));
    const subjects = (
      await db
        .selectFrom('subjects')
        .selectAll()
        .where('study_id', '=', studyId)
        .where('deleted_at', 'is', null)
        .execute()
    ).filter((subject) => siteCode.has(subject.site_id));
    const ids = subjects.length > 0 ? subjects.map((subject) => subject.id) : [0];
    const forms = await db
      .selectFrom('form_instances')
      .select(['id', 'subject_id', 'visit_key', 'form_key', 'has_data', 'status'])
      .where('subject_id', 'in', ids)
      .execute();
    const values = await db
      .selectFrom('item_values')
      .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
      .select(['item_values.form_instance_id', 'item_values.item_key', 'item_values.value'])
      .where('form_instances.subject_id', 'in', ids)
      .execute();
    const storedValue = new Map(values.map((row) => [`${row.form_instance_id}|${row.item_key}`, row.value]));
    const formOf = new Map(
      forms.map((form) => [`${form.subject_id}|${form.visit_key}|${form.form_key}`, form]),
    );
    const item = (subjectId: number, visitKey: string, formKey: string, itemKey: string): unknown => {
      const form = formOf.get(`${subjectId}|${visitKey}|${formKey}`);
      return form?.has_data ? storedValue.get(`${form.id}|${itemKey}`) : undefined;
    };
    const slots = await db
      .selectFrom('randomization_slots')
      .select(['subject_id', 'assigned_at'])
      .where('subject_id', 'in', ids)
      .execute();
    const windows = await db
      .selectFrom('subject_visit_windows')
      .selectAll()
      .where('subject_id', 'in', ids)
      .execute();
    const queries = await db.selectFrom('queries').selectAll().where('subject_id', 'in', ids).execute();
    const answers = await db
      .selectFrom('query_messages')
      .select(['query_id', 'created_at'])
      .where('kind', '=', 'answer')
      .where('query_id', 'in', queries.length > 0 ? queries.map((query) => query.id) : [0])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return { sites, siteCode, subjects, forms, formOf, item, slots, windows, queries, answers };
  }

  async function get<T>(email: string, report: string, query = ''): Promise<T> {
    const session = await signIn(app, email);
    const response = await app.inject({
      method: 'GET',
      url: `/api/studies/${studyId}/reports/${report}${query}`,
      headers: { cookie: session.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  }

  /** Every row of a paged report, page by page. */
  async function allRows<Row>(email: string, report: string): Promise<{ rows: Row[]; total: number }> {
    const rows: Row[] = [];
    let total = 0;
    for (let page = 1; ; page++) {
      const answer = await get<{ rows: Row[]; total: number }>(email, report, `?size=100&page=${page}`);
      rows.push(...answer.rows);
      total = answer.total;
      if (rows.length >= total || answer.rows.length === 0) return { rows, total };
    }
  }

  async function expectEnrollment(email: string, institutions?: string[]) {
    const data = await tables(institutions);
    const randomizedAt = new Map(data.slots.map((slot) => [slot.subject_id, slot.assigned_at]));
    const report = await get<EnrollmentReport>(email, 'enrollment');
    expect(report.targetPerSite).toBe(enrollmentTargetOf(definition));
    expect(report.sites.map((site) => site.siteCode)).toEqual(data.sites.map((site) => site.code));
    for (const site of data.sites) {
      const atSite = data.subjects.filter((subject) => subject.site_id === site.id);
      expect(report.sites.find((line) => line.siteId === site.id)).toMatchObject({
        target: site.enrollment_target ?? enrollmentTargetOf(definition),
        targetIsDefault: site.enrollment_target === null,
        screened: atSite.length,
        screeningFailures: atSite.filter((subject) => subject.status === 'screening_failure').length,
        randomized: atSite.filter((subject) => randomizedAt.has(subject.id)).length,
      });
    }
    const months = new Map<string, { screened: number; screeningFailures: number; randomized: number }>();
    const monthOf = (key: string) => {
      const found = months.get(key) ?? { screened: 0, screeningFailures: 0, randomized: 0 };
      months.set(key, found);
      return found;
    };
    for (const subject of data.subjects) {
      const month = monthOf(subject.consent_date.slice(0, 7));
      month.screened++;
      if (subject.status === 'screening_failure') month.screeningFailures++;
      const at = randomizedAt.get(subject.id);
      if (at) monthOf(koreanDay(at).slice(0, 7)).randomized++;
    }
    expect(report.months).toEqual(
      [...months.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([month, counts]) => ({ month, ...counts })),
    );
    const reasons = new Map<string | null, number>();
    for (const subject of data.subjects.filter((entry) => entry.status === 'screening_failure')) {
      const reason = text(data.item(subject.id, 'all', 'endExamination', 'screeningFailureReason'));
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    expect(new Map(report.failureReasons.map((line) => [line.reason?.code ?? null, line.count]))).toEqual(
      reasons,
    );
    return { report, subjects: data.subjects.length };
  }

  async function expectQueryAging(email: string, institutions?: string[]) {
    const data = await tables(institutions);
    const report = await get<QueryAgingReport>(email, 'queryAging');
    const firstAnswer = new Map<number, Date>();
    for (const answer of data.answers)
      if (!firstAnswer.has(answer.query_id)) firstAnswer.set(answer.query_id, answer.created_at);
    const lineOf = (siteId: number | null) => {
      const queries = data.queries.filter((query) => siteId === null || query.site_id === siteId);
      const buckets = (state: string) => {
        const counts: Record<QueryAgeBucket, number> = { '0-7': 0, '8-14': 0, '15-30': 0, '31+': 0 };
        for (const query of queries.filter((entry) => entry.status === state))
          counts[bucketOf(daysBetween(koreanDay(query.opened_at), today))]++;
        return counts;
      };
      const toAnswer = queries.flatMap((query) => {
        const answered = firstAnswer.get(query.id);
        return answered ? [daysBetween(koreanDay(query.opened_at), koreanDay(answered))] : [];
      });
      const toClose = queries
        .filter((query) => query.status === 'closed' && query.closed_at !== null)
        .map((query) => daysBetween(koreanDay(query.opened_at), koreanDay(query.closed_at as Date)));
      return {
        open: buckets('open'),
        answered: buckets('answered'),
        medianDaysToAnswer: median(toAnswer),
        medianDaysToClose: median(toClose),
      };
    };
    expect(report.total).toEqual(lineOf(null));
    for (const site of data.sites) {
      const {
        siteId: _siteId,
        siteCode: _siteCode,
        ...line
      } = report.sites.find((entry) => entry.siteId === site.id) ?? {
        siteId: 0,
        siteCode: '',
      };
      expect(line).toEqual(lineOf(site.id));
    }
    return {
      report,
      unresolved: data.queries.filter((query) => ['open', 'answered'].includes(query.status)).length,
    };
  }

  async function expectMissingForms(email: string, institutions?: string[]) {
    const data = await tables(institutions);
    const expected: string[] = [];
    for (const subject of data.subjects) {
      // A subject an amendment has not moved yet has the forms of its own version (issue 49).
      const own = subject.definition_version
        ? (await studyDefinitionOfVersion(database().db, studyId, subject.definition_version)).definition
        : definition;
      const visitDate = own.visitDate as { form: string; item: string };
      const scheduled = own.visits.filter((visit) => visit.forms.includes(visitDate.form));
      for (const visit of scheduled) {
        let due = text(data.item(subject.id, visit.key, visitDate.form, visitDate.item));
        if (due === null) {
          const window = data.windows.find(
            (entry) => entry.subject_id === subject.id && entry.visit_key === visit.key,
          );
          if (
            window &&
            window.actual_date === null &&
            window.subject_status === 'ongoing' &&
            window.latest_date < today
          )
            due = window.latest_date;
        }
        if (due === null) continue;
        for (const formKey of visit.forms) {
          const form = data.formOf.get(`${subject.id}|${visit.key}|${formKey}`);
          const state = !form?.has_data ? 'empty' : form.status === 'dash' ? 'incomplete' : null;
          if (state === null) continue;
          expected.push(
            `${subject.screening_number}|${visit.key}|${formKey}|${state}|${due}|${Math.max(0, daysBetween(due, today))}`,
          );
        }
      }
    }
    const { rows, total } = await allRows<MissingFormsReport['rows'][number]>(email, 'missingForms');
    expect(total).toBe(expected.length);
    expect(
      rows
        .map(
          (row) =>
            `${row.subjectId}|${row.visitKey}|${row.formKey}|${row.state}|${row.dueDate}|${row.daysOutstanding}`,
        )
        .sort(),
    ).toEqual(expected.sort());
    // The longest outstanding first.
    expect(rows.map((row) => row.daysOutstanding)).toEqual(
      [...rows.map((row) => row.daysOutstanding)].sort((a, b) => b - a),
    );
    return total;
  }

  async function expectDeviations(email: string, institutions?: string[]) {
    const data = await tables(institutions);
    const visitDate = definition.visitDate as { form: string; item: string };
    const expected: string[] = [];
    const screening = new Map(data.subjects.map((subject) => [subject.id, subject.screening_number]));
    for (const window of data.windows) {
      if (window.actual_date === null) continue;
      const days =
        window.actual_date < window.earliest_date
          ? daysBetween(window.earliest_date, window.actual_date)
          : window.actual_date > window.latest_date
            ? daysBetween(window.latest_date, window.actual_date)
            : 0;
      if (days !== 0)
        expected.push(`${screening.get(window.subject_id)}|outOfWindow|${window.visit_key}|${days}`);
    }
    const evaluation = definition.forms.find((form) => form.key === 'inclusionExclusionEval');
    const keysOf = (section: string) =>
      evaluation?.sections.find((entry) => entry.key === section)?.items.map((entry) => entry.key) ?? [];
    for (const subject of data.subjects) {
      for (const visit of definition.visits) {
        if (!visit.forms.includes('inclusionExclusionEval')) continue;
        if (data.item(subject.id, visit.key, 'inclusionExclusionEval', 'eligible') !== 'Y') continue;
        const fails =
          keysOf('inclusion').some(
            (key) => data.item(subject.id, visit.key, 'inclusionExclusionEval', key) === 'N',
          ) ||
          keysOf('exclusion').some(
            (key) => data.item(subject.id, visit.key, 'inclusionExclusionEval', key) === 'Y',
          );
        if (fails) expected.push(`${subject.screening_number}|eligibleWhileCriterionFails|${visit.key}|null`);
      }
      const applied = data.item(subject.id, 'v2', 'deviceApplication', 'applied');
      const appliedOn = text(data.item(subject.id, 'v2', 'deviceApplication', 'applicationDate'));
      const v2Date = text(data.item(subject.id, 'v2', visitDate.form, visitDate.item));
      if (applied === 'Y' && appliedOn && v2Date && appliedOn !== v2Date)
        expected.push(
          `${subject.screening_number}|treatmentOffVisitDate|v2|${daysBetween(v2Date, appliedOn)}`,
        );
      if (data.item(subject.id, 'v1', 'demographicInfo', 'gender') === 'F') {
        for (const visit of definition.visits) {
          if (!visit.forms.includes('pregnancyTest') || !visit.forms.includes(visitDate.form)) continue;
          if (text(data.item(subject.id, visit.key, visitDate.form, visitDate.item)) === null) continue;
          const potential = data.item(subject.id, visit.key, 'pregnancyTest', 'childbearingPotential');
          const result = data.item(subject.id, visit.key, 'pregnancyTest', 'result');
          if (potential === undefined || (potential === 'Y' && result === undefined))
            expected.push(`${subject.screening_number}|missingPregnancyTest|${visit.key}|null`);
        }
      }
    }
    const { rows, total } = await allRows<ProtocolDeviationsReport['rows'][number]>(
      email,
      'protocolDeviations',
    );
    expect(total).toBe(expected.length);
    expect(rows.map((row) => `${row.subjectId}|${row.kind}|${row.visitKey}|${row.days}`).sort()).toEqual(
      expected.sort(),
    );
    return total;
  }

  async function expectAdverseEvents(email: string, institutions?: string[]) {
    const data = await tables(institutions);
    const expected: string[] = [];
    for (const subject of data.subjects) {
      const events = data.item(subject.id, 'all', 'adverseEvent', 'events');
      if (!Array.isArray(events)) continue;
      events.forEach((event: Record<string, unknown>, index) => {
        expected.push(
          `${subject.screening_number}|${index + 1}|${text(event.name)}|${event.serious === 'Y'}|${text(event.severity)}|${text(event.outcome)}`,
        );
      });
    }
    const { rows, total } = await allRows<AdverseEventsReport['rows'][number]>(email, 'adverseEvents');
    expect(total).toBe(expected.length);
    expect(
      rows
        .map(
          (row) =>
            `${row.subjectId}|${row.eventNumber}|${row.term}|${row.serious}|${row.severity?.code ?? null}|${row.outcome?.code ?? null}`,
        )
        .sort(),
    ).toEqual(expected.sort());
    const serious = await get<AdverseEventsReport>(email, 'adverseEvents', '?serious=serious&size=100');
    expect(serious.total).toBe(expected.filter((line) => line.split('|')[3] === 'true').length);

    const report = await get<AdverseEventsReport>(email, 'adverseEvents');
    expect(report.interestEvents.map((event) => `${event.key} ${event.label.en}`)).toEqual([
      'pain Pain',
      'otorrhea Otorrhoea',
      'reperforation Reperforation',
    ]);
    for (const line of report.interest) {
      const saved = data.subjects.filter(
        (subject) => data.formOf.get(`${subject.id}|${line.visitKey}|interestAdverseEvent`)?.has_data,
      );
      const yes = (itemKey: string) =>
        saved.filter(
          (subject) => data.item(subject.id, line.visitKey, 'interestAdverseEvent', itemKey) === 'Y',
        ).length;
      expect(line).toMatchObject({
        forms: saved.length,
        counts: { pain: yes('pain'), otorrhea: yes('otorrhea'), reperforation: yes('reperforation') },
      });
    }
    return {
      total,
      serious: serious.total,
      interestForms: report.interest.reduce((sum, line) => sum + line.forms, 0),
    };
  }

  it('enrollment: per site and month, failures by reason, for the data manager and a site coordinator', async () => {
    const all = await expectEnrollment('dm@demo.cdms');
    expect(all.subjects).toBeGreaterThan(25);
    expect(all.report.failureReasons.length).toBeGreaterThan(0);
    // The demo shows sites with their own target and a site on the study default.
    expect(new Set(all.report.sites.map((site) => site.targetIsDefault))).toEqual(new Set([true, false]));
    const own = await expectEnrollment('crc@demo.cdms', ['02']);
    expect(own.report.sites.map((site) => site.siteCode)).toHaveLength(1);
  });

  it('query aging: buckets and medians per site equal the queries and their answers', async () => {
    const all = await expectQueryAging('dm@demo.cdms');
    expect(all.unresolved).toBeGreaterThan(0);
    expect(all.report.total.medianDaysToAnswer).not.toBeNull();
    await expectQueryAging('cra@demo.cdms', ['01', '02']);
  });

  it('missing forms: the empty and incomplete forms of visits done or overdue', async () => {
    expect(await expectMissingForms('dm@demo.cdms')).toBeGreaterThan(0);
    await expectMissingForms('crc@demo.cdms', ['02']);
  });

  it('protocol deviations: each of the four kinds as the data says', async () => {
    expect(await expectDeviations('dm@demo.cdms')).toBeGreaterThan(0);
    await expectDeviations('pi@demo.cdms', ['01']);
  });

  it('adverse events: every event, the serious ones, and the events of interest by visit', async () => {
    const all = await expectAdverseEvents('dm@demo.cdms');
    expect(all.serious).toBeGreaterThan(0);
    expect(all.interestForms).toBeGreaterThan(0);
    await expectAdverseEvents('crc@demo.cdms', ['02']);
  });

  it("a site outside the reader's sites is 404, a download is audited", async () => {
    const { db } = database();
    const site03 = await db
      .selectFrom('sites')
      .select('id')
      .where('study_id', '=', studyId)
      .where('institution_number', '=', '03')
      .executeTakeFirstOrThrow();
    const crc = await signIn(app, 'crc@demo.cdms');
    const outside = await app.inject({
      method: 'GET',
      url: `/api/studies/${studyId}/reports/enrollment?siteId=${site03.id}`,
      headers: { cookie: crc.cookie },
    });
    expect(outside.statusCode).toBe(404);

    const dm = await signIn(app, 'dm@demo.cdms');
    const before = await db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_type', '=', 'report.exported')
      .executeTakeFirstOrThrow();
    const csv = await app.inject({
      method: 'GET',
      url: `/api/studies/${studyId}/reports/adverseEvents/download?format=csv`,
      headers: { cookie: dm.cookie, 'accept-language': 'en' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    const { total } = await get<AdverseEventsReport>('dm@demo.cdms', 'adverseEvents');
    expect(lines).toHaveLength(total + 1);
    expect(lines[0]).toContain('Screening number');
    const xlsx = await app.inject({
      method: 'GET',
      url: `/api/studies/${studyId}/reports/queryAging/download?format=xlsx`,
      headers: { cookie: dm.cookie },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const after = await db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_type', '=', 'report.exported')
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(2);
  });
}
