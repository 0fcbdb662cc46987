import { todayInKorea } from '@cdms/contract';
import {
  addDays,
  computeFormStatus,
  evaluateSubject,
  type FormValues,
  getFormLayout,
  getStudyIndex,
  isSigningForm,
  sampleSubject,
  tmPerforationStudy,
} from '@cdms/study';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { systemActor } from '../audit/audit-events.ts';
import { loadSubjectData } from '../data-entry/form-data.ts';
import { failingQueryChecks, systemQueryKey } from '../data-entry/sync-system-queries.ts';
import type { App } from '../http/types.ts';
import { addLabRangeChecks } from '../lab-range-rules/lab-range-checks.ts';
import { generateRandomizationLists } from '../randomization/randomization.ts';
import { loadSdvPlan } from '../sdv-state/sdv-plan.ts';
import { sdvKeySets } from '../sdv-state/sdv-rules.ts';
import { sdvCountAggregates, sdvCtes } from '../sdv-state/sdv-sql.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { computeReadModelRows, rebuildReadModel } from './rebuild-read-model.ts';
import { computeReportRows } from './report-rows.ts';
import { compactSubjectFactTotals } from './subject-fact-totals.ts';

/**
 * The read model is only worth having if it is right: after random sequences of what people do
 * to subjects — register, save forms (visit dates moved, genders and events changed, items left out,
 * criteria failing), reset forms, randomize, sign, delete, raise queries and answer, comment, close,
 * cancel or reopen them, verify forms against the source, change the SDV plan — the rows stored by
 * the writes equal a full recomputation from the raw data, row for row, and the SDV counts equal what
 * the SDV read-outs' own SQL counts over the whole study. And a rebuild from scratch gives the same
 * rows again.
 */

const sample = sampleSubject();
/** Every form of the sample casebook a person saves (registration and signing are the system's). */
const forms = getStudyIndex(tmPerforationStudy)
  .schedule.filter(
    (layout) =>
      layout.visitKey !== 'consentScreening' &&
      !isSigningForm(tmPerforationStudy, layout.visitKey, layout.form.key) &&
      sample[layout.visitKey]?.[layout.form.key] !== undefined,
  )
  .map((layout) => ({ visitKey: layout.visitKey, formKey: layout.form.key }));

type Action =
  | { kind: 'register'; consentDay: number }
  | {
      kind: 'save';
      subject: number;
      form: number;
      shiftDays: number;
      flipGender: boolean;
      dropEvents: boolean;
      dropLastItem: boolean;
      failCriterion: boolean;
    }
  | { kind: 'reset'; subject: number; form: number }
  | { kind: 'randomize'; subject: number }
  | { kind: 'sign'; subject: number }
  | { kind: 'delete'; subject: number }
  | { kind: 'raise'; subject: number; form: number; system: boolean }
  | { kind: 'query'; query: number; action: (typeof queryActions)[number] }
  | { kind: 'verify'; subject: number; form: number }
  | { kind: 'plan'; critical: boolean; firstSubjects: number };

const queryActions = ['answer', 'comment', 'close', 'cancel', 'reopen'] as const;

const subjectPick = fc.nat({ max: 50 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('verify' as const),
      subject: subjectPick,
      form: fc.nat({ max: forms.length - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('plan' as const),
      critical: fc.boolean(),
      firstSubjects: fc.nat({ max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('register' as const), consentDay: fc.nat({ max: 300 }) }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      subject: subjectPick,
      form: fc.nat({ max: forms.length - 1 }),
      shiftDays: fc.integer({ min: -20, max: 20 }),
      flipGender: fc.boolean(),
      dropEvents: fc.boolean(),
      dropLastItem: fc.boolean(),
      failCriterion: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reset' as const),
      subject: subjectPick,
      form: fc.nat({ max: forms.length - 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('randomize' as const), subject: subjectPick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sign' as const), subject: subjectPick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), subject: subjectPick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('raise' as const),
      subject: subjectPick,
      form: fc.nat({ max: forms.length - 1 }),
      system: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      query: fc.nat({ max: 200 }),
      action: fc.constantFrom(...queryActions),
    }),
  },
);

/** The sample values of a form, varied the ways that move facts. */
function variedValues(
  visitKey: string,
  formKey: string,
  change: {
    shiftDays: number;
    flipGender: boolean;
    dropEvents: boolean;
    dropLastItem: boolean;
    failCriterion: boolean;
  },
): FormValues {
  const values = structuredClone(sample[visitKey]?.[formKey] ?? {}) as Record<string, unknown>;
  // A form saved without its last item (a required one: the form is incomplete; a pregnancy test
  // without its result), and an inclusion criterion failing while the evaluation says eligible.
  const keys = Object.keys(values);
  if (change.dropLastItem && keys.length > 1) delete values[keys.at(-1) as string];
  if (change.failCriterion && values.inc01 === 'Y') values.inc01 = 'N';
  if (typeof values.visitDate === 'string')
    values.visitDate = addDays(values.visitDate, change.shiftDays) ?? values.visitDate;
  if (change.flipGender && (values.gender === 'M' || values.gender === 'F'))
    values.gender = values.gender === 'M' ? 'F' : 'M';
  if (change.dropEvents && Array.isArray(values.events)) values.events = values.events.slice(1);
  return values as FormValues;
}

describeWithDatabase(
  'the read model',
  (database) => {
    let app: App;
    let studyId: number;
    let siteId: number;
    const session: Record<string, SignedIn> = {};
    const subjects: number[] = [];
    const outcomes = new Map<string, number>();

    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url, headers: session[who]?.headers ?? {}, ...(payload ? { payload } : {}) });
    const subjectUrl = (id: number) => `/api/studies/${studyId}/subjects/${id}`;
    const pick = (index: number) => subjects[index % Math.max(subjects.length, 1)];

    async function perform(step: Action): Promise<number> {
      if (step.kind === 'register') {
        const response = await as('si', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId,
          consentDate: addDays('2025-01-01', step.consentDay),
          initials: 'PRP',
        });
        if (response.statusCode === 201) subjects.push(response.json().id);
        return response.statusCode;
      }
      if (step.kind === 'query') {
        // Any query of the study (manual or raised by a check), any action, as who would take it.
        const queries = await database()
          .db.selectFrom('queries')
          .select(['id', 'kind'])
          .where('study_id', '=', studyId)
          .orderBy('id')
          .execute();
        const query = queries[step.query % Math.max(queries.length, 1)];
        if (!query) return 0;
        const who = step.action === 'answer' || step.action === 'comment' ? 'si' : 'cra';
        return (
          await as(who, 'POST', `/api/studies/${studyId}/queries/${query.id}/${step.action}`, {
            text: 'Checked against the source.',
          })
        ).statusCode;
      }
      if (step.kind === 'plan') {
        const plan = { mode: step.critical ? 'critical' : 'all', firstSubjectsPerSite: step.firstSubjects };
        return (await as('dm', 'PUT', `/api/studies/${studyId}/sdv/plan`, plan)).statusCode;
      }
      // Deletion is for a subject registered in error, before any data: try the newest one.
      const subjectId = step.kind === 'delete' ? subjects.at(-1) : pick(step.subject);
      if (subjectId === undefined) return 0;
      switch (step.kind) {
        case 'save':
        case 'reset': {
          const form = forms[step.form] as { visitKey: string; formKey: string };
          const url = `${subjectUrl(subjectId)}/forms/${form.visitKey}/${form.formKey}`;
          const current = await as('si', 'GET', url);
          if (current.statusCode !== 200) return current.statusCode;
          const { version } = current.json() as { version: number };
          if (step.kind === 'reset')
            return (await as('si', 'POST', `${url}/reset`, { version, reason: 'Entered in error' }))
              .statusCode;
          const values = variedValues(form.visitKey, form.formKey, step);
          const reasons = Object.fromEntries(
            Object.keys(values).map((key) => [key, 'Corrected from source']),
          );
          return (await as('si', 'PUT', url, { values, version, reasons })).statusCode;
        }
        case 'randomize':
          // Eligibility comes from the screening visits: enter them as the sample has them first.
          for (const form of forms.filter((entry) => entry.visitKey === 'v1' || entry.visitKey === 'v2')) {
            const url = `${subjectUrl(subjectId)}/forms/${form.visitKey}/${form.formKey}`;
            const { version } = (await as('si', 'GET', url)).json() as { version: number };
            const values = variedValues(form.visitKey, form.formKey, {
              shiftDays: 0,
              flipGender: false,
              dropEvents: false,
              dropLastItem: false,
              failCriterion: false,
            });
            const reasons = Object.fromEntries(
              Object.keys(values).map((key) => [key, 'Corrected from source']),
            );
            await as('si', 'PUT', url, { values, version, reasons });
          }
          return (await as('si', 'POST', `${subjectUrl(subjectId)}/randomize`)).statusCode;
        case 'sign':
          return (
            await as('pi', 'POST', `${subjectUrl(subjectId)}/signature`, { password: 'cdms-demo-2026' })
          ).statusCode;
        case 'delete':
          return (await as('pi', 'DELETE', subjectUrl(subjectId), { reason: 'Registered in error' }))
            .statusCode;
        case 'verify': {
          const form = forms[step.form] as { visitKey: string; formKey: string };
          return (
            await as('cra', 'POST', `/api/studies/${studyId}/sdv/verify-form`, {
              subjectPk: subjectId,
              visitKey: form.visitKey,
              formKey: form.formKey,
            })
          ).statusCode;
        }
        case 'raise': {
          // A monitor's query on the whole form, or (system) the vital signs failing their check.
          if (step.system) {
            const url = `${subjectUrl(subjectId)}/forms/v1/vitalSigns`;
            const current = await as('si', 'GET', url);
            if (current.statusCode !== 200) return current.statusCode;
            const { version } = current.json() as { version: number };
            const values = { bloodPressureSystolic: 70, bloodPressureDiastolic: 80 };
            const reasons = { bloodPressureSystolic: 'Re-measured', bloodPressureDiastolic: 'Re-measured' };
            return (await as('si', 'PUT', url, { values, version, reasons })).statusCode === 200 ? 201 : 422;
          }
          const form = forms[step.form] as { visitKey: string; formKey: string };
          return (
            await as('cra', 'POST', `/api/studies/${studyId}/queries`, {
              subjectPk: subjectId,
              visitKey: form.visitKey,
              formKey: form.formKey,
              itemPath: '',
              text: 'Please check against the source.',
            })
          ).statusCode;
        }
      }
    }

    async function storedRows() {
      const db = database().db;
      const facts = await db.selectFrom('subject_facts').selectAll().orderBy('subject_id').execute();
      const windows = await db
        .selectFrom('subject_visit_windows')
        .selectAll()
        .orderBy('subject_id')
        .orderBy('visit_key')
        .execute();
      const visits = await db
        .selectFrom('subject_visits')
        .selectAll()
        .orderBy('subject_id')
        .orderBy('visit_key')
        .execute();
      const reportRows = await sql<Record<string, unknown>>`
        select * from report_rows order by subject_id, report, row_key`.execute(db);
      return { facts, windows, visits, reportRows: reportRows.rows };
    }

    async function recomputedRows() {
      const db = database().db;
      const current = await currentStudyDefinition(db, studyId);
      if (!current) throw new Error('no definition');
      const rows = await computeReadModelRows(db, studyId, current.definition);
      const byId = (a: { subject_id: number }, b: { subject_id: number }) => a.subject_id - b.subject_id;
      const byVisit = (
        a: { subject_id: number; visit_key: string },
        b: { subject_id: number; visit_key: string },
      ) => byId(a, b) || (a.visit_key < b.visit_key ? -1 : a.visit_key > b.visit_key ? 1 : 0);
      const subjects = await db.selectFrom('subjects').select('id').where('study_id', '=', studyId).execute();
      const reportRows = await computeReportRows(
        db,
        current.definition,
        subjects.map((subject) => subject.id),
      );
      return {
        facts: rows.map((row) => row.facts).sort(byId),
        windows: rows.flatMap((row) => row.windows).sort(byVisit),
        visits: rows.flatMap((row) => row.visits).sort(byVisit),
        reportRows,
      };
    }

    /**
     * The SDV counts the read model stores, per subject, against those the SDV read-outs' own SQL gives
     * over the whole study (sdv-sql.ts, ranked by a window over every subject of each site).
     */
    async function sdvCountsBothWays() {
      const db = database().db;
      const current = await currentStudyDefinition(db, studyId);
      if (!current) throw new Error('no definition');
      const plan = await loadSdvPlan(db, studyId);
      const recounted = await sql<Record<string, number>>`
      with ${sdvCtes({ studyId, plan, keys: sdvKeySets(current.definition), sites: 'all' })}
      select r.subject_id, r.site_rank::int as site_rank, ${sdvCountAggregates}
      from ranked_subjects r left join form_sdv f on f.subject_id = r.subject_id
      group by r.subject_id, r.site_rank order by r.subject_id`.execute(db);
      const stored = await sql<Record<string, number>>`
      select subject_id, sdv_site_rank as site_rank, sdv_planned_items as planned_items,
        sdv_verified_items as verified_items, sdv_changed_items as changed_items,
        sdv_planned_forms as planned_forms, sdv_complete_forms as complete_forms
      from subject_facts where study_id = ${studyId} order by subject_id`.execute(db);
      return { stored: stored.rows, recounted: recounted.rows };
    }

    /**
     * The dashboard's totals (deltas a trigger appends, read-model/subject-fact-totals.ts) added up
     * per group, against the same sums over the facts rows themselves; `compact` folds the deltas first.
     */
    async function totalsBothWays(options: { compact?: boolean } = {}) {
      const db = database().db;
      if (options.compact) await compactSubjectFactTotals(db);
      const key = sql`study_id, site_id, status, randomized, gender, age_band`;
      const fromTotals = await sql<Record<string, unknown>>`
      select ${key}, sum(subjects)::int as subjects, sum(adverse_events)::int as ae,
        sum(serious_adverse_events)::int as sae, sum(subjects_with_adverse_events)::int as with_ae,
        sum(subjects_with_serious_adverse_events)::int as with_sae, sum(open_queries)::int as open,
        sum(answered_queries)::int as answered, sum(manual_open_queries)::int as manual_open,
        sum(manual_answered_queries)::int as manual_answered, sum(saved_forms)::int as saved_forms,
        sum(sdv_planned_forms)::int as planned, sum(sdv_complete_forms)::int as complete
      from subject_fact_totals group by ${key} having sum(subjects) <> 0
      order by ${key}`.execute(db);
      const fromFacts = await sql<Record<string, unknown>>`
      select ${key}, count(*)::int as subjects, sum(adverse_event_count)::int as ae,
        sum(serious_adverse_event_count)::int as sae,
        (count(*) filter (where adverse_event_count > 0))::int as with_ae,
        (count(*) filter (where serious_adverse_event_count > 0))::int as with_sae,
        sum(open_query_count)::int as open, sum(answered_query_count)::int as answered,
        sum(manual_open_query_count)::int as manual_open,
        sum(manual_answered_query_count)::int as manual_answered,
        sum(saved_form_count)::int as saved_forms, sum(sdv_planned_forms)::int as planned,
        sum(sdv_complete_forms)::int as complete
      from (select *, randomization_number is not null as randomized from subject_facts) f
      group by ${key} order by ${key}`.execute(db);
      const monthsFromTotals = await sql<Record<string, unknown>>`
      select study_id, site_id, consent_month, sum(subjects)::int as subjects from consent_month_totals
      group by study_id, site_id, consent_month having sum(subjects) <> 0
      order by study_id, site_id, consent_month`.execute(db);
      const monthsFromFacts = await sql<Record<string, unknown>>`
      select study_id, site_id, consent_month, count(*)::int as subjects from subject_facts
      group by study_id, site_id, consent_month order by study_id, site_id, consent_month`.execute(db);
      // The visit alarms' counts (migration 2026-11-30T1200): per site for deviations, per site and
      // window dates for windows still to be done by subjects in follow-up.
      const alarmKey = sql`study_id, site_id, kind, earliest_date, latest_date`;
      const alarmsFromTotals = await sql<Record<string, unknown>>`
      select ${alarmKey}, sum(windows)::int as windows from visit_alarm_totals
      group by ${alarmKey} having sum(windows) <> 0 order by ${alarmKey}`.execute(db);
      const alarmsFromWindows = await sql<Record<string, unknown>>`
      select ${alarmKey}, count(*)::int as windows from (
        select study_id, site_id, 'outOfWindow' as kind, null::date as earliest_date, null::date as latest_date
        from subject_visit_windows where actual_date < earliest_date or actual_date > latest_date
        union all
        select study_id, site_id, 'pending', earliest_date, latest_date
        from subject_visit_windows where actual_date is null and subject_status = 'ongoing'
      ) w group by ${alarmKey} order by ${alarmKey}`.execute(db);
      const listFromTotals = await sql<Record<string, unknown>>`
      select study_id, site_id, status, signed, sum(subjects)::int as subjects from subject_list_totals
      group by study_id, site_id, status, signed having sum(subjects) <> 0
      order by study_id, site_id, status, signed`.execute(db);
      const listFromFacts = await sql<Record<string, unknown>>`
      select study_id, site_id, status, signature_state = 'signed' as signed, count(*)::int as subjects
      from subject_facts group by study_id, site_id, status, signature_state = 'signed'
      order by study_id, site_id, status, signed`.execute(db);
      // The SDV progress by site and the SDV list's totals per state filter (migration 2026-12-06T1900).
      const sdvSums = sql`sum(subjects)::int as subjects, sum(complete_subjects)::int as complete_subjects,
        sum(incomplete_subjects)::int as incomplete_subjects, sum(changed_subjects)::int as changed_subjects,
        sum(planned_items)::int as planned_items, sum(verified_items)::int as verified_items,
        sum(changed_items)::int as changed_items, sum(planned_forms)::int as planned_forms,
        sum(complete_forms)::int as complete_forms`;
      const sdvFromTotals = await sql<Record<string, unknown>>`
      select study_id, site_id, ${sdvSums} from sdv_site_totals
      group by study_id, site_id having sum(subjects) <> 0 order by study_id, site_id`.execute(db);
      const sdvFromFacts = await sql<Record<string, unknown>>`
      select study_id, site_id, ${sdvSums} from (
        select study_id, site_id, 1 as subjects,
          (sdv_complete_forms = sdv_planned_forms)::int as complete_subjects,
          (sdv_complete_forms < sdv_planned_forms)::int as incomplete_subjects,
          (sdv_changed_items > 0)::int as changed_subjects,
          sdv_planned_items as planned_items, sdv_verified_items as verified_items,
          sdv_changed_items as changed_items, sdv_planned_forms as planned_forms,
          sdv_complete_forms as complete_forms
        from subject_facts) f
      group by study_id, site_id order by study_id, site_id`.execute(db);
      // The reports' counts (issue 46): per site, report, visit, bucket and the date a row counts from.
      const reportKey = sql`study_id, site_id, report, group_key, bucket, counts_from`;
      const reportsFromTotals = await sql<Record<string, unknown>>`
      select ${reportKey}, sum(rows)::int as rows, round(sum(value_sum)::numeric, 6)::float8 as value_sum from report_row_totals
      group by ${reportKey} having sum(rows) <> 0 order by ${reportKey}`.execute(db);
      const reportsFromRows = await sql<Record<string, unknown>>`
      select ${reportKey}, count(*)::int as rows, round(coalesce(sum(value), 0)::numeric, 6)::float8 as value_sum from report_rows
      group by ${reportKey} order by ${reportKey}`.execute(db);
      // The readiness board's counts (migration 2026-12-06T1920): per site, whether nothing stored
      // holds the subject back from a lock and, for those, the first day a visit is overdue.
      const readinessKey = sql`study_id, site_id, lock_clear, invalidated, overdue_from`;
      const readinessFromTotals = await sql<Record<string, unknown>>`
      select ${readinessKey}, sum(subjects)::int as subjects,
        sum(forms_missing_required)::int as forms_missing_required from readiness_totals
      group by ${readinessKey} having sum(subjects) <> 0 order by ${readinessKey}`.execute(db);
      const readinessFromFacts = await sql<Record<string, unknown>>`
      select ${readinessKey}, count(*)::int as subjects,
        sum(forms_missing_required)::int as forms_missing_required
      from (select study_id, site_id, lock_clear, signature_state = 'invalidated' as invalidated,
          case when lock_clear then overdue_from end as overdue_from, forms_missing_required
        from (select *, open_query_count = 0 and answered_query_count = 0 and forms_missing_required = 0
            and sdv_planned_forms = sdv_complete_forms and signature_state = 'signed' as lock_clear
          from subject_facts) f) r
      group by ${readinessKey} order by ${readinessKey}`.execute(db);
      // The query list's counts (migration 2026-12-06T1940): queries per site, status, kind and
      // assignee, against a count of the queries of subjects not deleted, as the list shows them.
      const queryKey = sql`study_id, site_id, status, kind, assignee`;
      const queriesFromTotals = await sql<Record<string, unknown>>`
      select ${queryKey}, sum(queries)::int as queries from query_list_totals
      group by ${queryKey} having sum(queries) <> 0 order by ${queryKey}`.execute(db);
      const queriesCounted = await sql<Record<string, unknown>>`
      select q.study_id, q.site_id, q.status, q.kind, q.assignee, count(*)::int as queries
      from queries q join subjects s on s.id = q.subject_id and s.deleted_at is null
      group by q.study_id, q.site_id, q.status, q.kind, q.assignee
      order by q.study_id, q.site_id, q.status, q.kind, q.assignee`.execute(db);
      return {
        totals: {
          readiness: readinessFromTotals.rows,
          groups: fromTotals.rows,
          months: monthsFromTotals.rows,
          alarms: alarmsFromTotals.rows,
          list: listFromTotals.rows,
          reports: reportsFromTotals.rows,
          sdv: sdvFromTotals.rows,
          queries: queriesFromTotals.rows,
        },
        recounted: {
          readiness: readinessFromFacts.rows,
          groups: fromFacts.rows,
          months: monthsFromFacts.rows,
          alarms: alarmsFromWindows.rows,
          list: listFromFacts.rows,
          reports: reportsFromRows.rows,
          sdv: sdvFromFacts.rows,
          queries: queriesCounted.rows,
        },
      };
    }

    /**
     * The readiness board's stored blockers against the raw rows they stand for: the saved forms
     * whose status is 'dash', and the first day one of the windows still to be done in follow-up
     * is overdue (opened, and closed the day before).
     */
    async function readinessBlockersBothWays() {
      const db = database().db;
      const stored = await sql<Record<string, unknown>>`
      select subject_id, forms_missing_required, overdue_from from subject_facts order by subject_id`.execute(
        db,
      );
      const recounted = await sql<Record<string, unknown>>`
      select f.subject_id,
        (select count(*)::int from form_instances fi
          where fi.subject_id = f.subject_id and fi.has_data and fi.status = 'dash') as forms_missing_required,
        (select min(greatest(w.earliest_date, w.latest_date + 1)) from subject_visit_windows w
          where w.subject_id = f.subject_id and w.actual_date is null and w.subject_status = 'ongoing')
          as overdue_from
      from subject_facts f order by f.subject_id`.execute(db);
      return { stored: stored.rows, recounted: recounted.rows };
    }

    /**
     * Each saved form's status and each subject's open system queries as the writes left them, against
     * a full evaluation of every form of every subject. A save evaluates only the forms its change can
     * reach (`formsToWalk`, subjects/form-data.ts) and leaves the others as they are: this is where a
     * form it should have evaluated again would show. The open system queries are the failing "query"
     * checks of saved forms, but for those a person closed while the check still failed.
     */
    async function evaluatedStateBothWays() {
      const db = database().db;
      const current = await currentStudyDefinition(db, studyId);
      if (!current) throw new Error('no definition');
      const { definition } = current;
      const subjects = await db
        .selectFrom('subjects')
        .select(['id', 'site_id'])
        .where('study_id', '=', studyId)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute();
      const stored: unknown[] = [];
      const evaluated: unknown[] = [];
      for (const subject of subjects) {
        const data = await loadSubjectData(db, subject.id);
        const evaluation = evaluateSubject(definition, data.entered, { today: todayInKorea() });
        await addLabRangeChecks(db, definition, { siteId: subject.site_id }, evaluation);
        const queries = await db
          .selectFrom('queries')
          .select(['kind', 'status', 'visit_key', 'form_key', 'check_id', 'item_path', 'closed_over_check'])
          .where('subject_id', '=', subject.id)
          .execute();
        const open = queries.filter((query) => query.status === 'open' || query.status === 'answered');
        for (const [key, instance] of data.instances) {
          stored.push([subject.id, key, instance.status]);
          const form = evaluation.forms.find(
            (candidate) =>
              candidate.visitKey === instance.visit_key && candidate.formKey === instance.form_key,
          );
          const status = computeFormStatus({
            inVisit: getFormLayout(definition, instance.visit_key, instance.form_key) !== undefined,
            saved: instance.has_data,
            openQueryCount: open.filter(
              (query) => query.visit_key === instance.visit_key && query.form_key === instance.form_key,
            ).length,
            missingCount: form?.missing.length ?? 0,
          });
          evaluated.push([subject.id, key, status]);
        }
        const keyOf = (query: (typeof queries)[number]) =>
          systemQueryKey(query.visit_key, query.form_key, query.check_id, query.item_path);
        const openSystem = open.filter((query) => query.kind === 'system').map(keyOf);
        const closedOverCheck = new Set(
          queries.filter((query) => query.closed_over_check && query.kind === 'system').map(keyOf),
        );
        const failing = [...failingQueryChecks(data, evaluation).keys()].filter(
          (key) => openSystem.includes(key) || !closedOverCheck.has(key),
        );
        stored.push([subject.id, 'open system queries', openSystem.sort()]);
        evaluated.push([subject.id, 'open system queries', failing.sort()]);
      }
      return { stored, evaluated };
    }

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      const ids = await demoStudyIds(db);
      studyId = ids.studyId;
      siteId = ids.siteId('01');
      await generateRandomizationLists(db, systemActor('test'), studyId, {
        perSite: 200,
        seed: 'read-model',
      });
      session.si = await signIn(app, 'si@demo.cdms');
      session.pi = await signIn(app, 'pi@demo.cdms');
      session.cra = await signIn(app, 'cra@demo.cdms');
      session.dm = await signIn(app, 'dm@demo.cdms');
    });
    afterAll(async () => {
      await app.close();
    });

    it('stores after every random sequence of writes exactly what recomputing from the raw data gives', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 25 }), async (steps) => {
          for (const step of steps) {
            const status = await perform(step);
            expect(status, `${step.kind} answered ${status}`).toBeLessThan(500);
            const key = `${step.kind} ${status}`;
            outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          }
          expect(await storedRows()).toEqual(await recomputedRows());
          const state = await evaluatedStateBothWays();
          expect(state.stored).toEqual(state.evaluated);
          const sdv = await sdvCountsBothWays();
          expect(sdv.stored).toEqual(sdv.recounted);
          const blockers = await readinessBlockersBothWays();
          expect(blockers.stored).toEqual(blockers.recounted);
          const totals = await totalsBothWays();
          expect(totals.totals).toEqual(totals.recounted);
          const compacted = await totalsBothWays({ compact: true });
          expect(compacted.totals).toEqual(compacted.recounted);
          // Compacting leaves one row per group: reading the totals does not grow with the writes.
          const rows = await database()
            .db.selectFrom('subject_fact_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(rows.n).toBe(compacted.totals.groups.length);
          const alarmRows = await database()
            .db.selectFrom('visit_alarm_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(alarmRows.n).toBe(compacted.totals.alarms.length);
          const listRows = await database()
            .db.selectFrom('subject_list_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(listRows.n).toBe(compacted.totals.list.length);
          const reportRows = await database()
            .db.selectFrom('report_row_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(reportRows.n).toBe(compacted.totals.reports.length);
          const sdvRows = await database()
            .db.selectFrom('sdv_site_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(sdvRows.n).toBe(compacted.totals.sdv.length);
          const readinessRows = await database()
            .db.selectFrom('readiness_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(readinessRows.n).toBe(compacted.totals.readiness.length);
          const queryRows = await database()
            .db.selectFrom('query_list_totals')
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow();
          expect(queryRows.n).toBe(compacted.totals.queries.length);
        }),
        {
          numRuns: Number(process.env.READ_MODEL_RUNS ?? 12),
          seed: Number(process.env.READ_MODEL_SEED ?? 20261127),
        },
      );
      // The sequences did reach the facts that matter (not only refusals).
      for (const reached of [
        'register 201',
        'save 200',
        'reset 200',
        'randomize 201',
        'sign 201',
        'delete 204',
        'raise 201',
        'query 200',
        'query 409',
        'verify 200',
        'plan 200',
      ]) {
        expect(outcomes.get(reached) ?? 0, `${reached} in ${JSON.stringify([...outcomes])}`).toBeGreaterThan(
          0,
        );
      }
      // Some 200 requests through the whole app: ~15 s on a quiet machine, more than the suite's 30 s
      // default when CI shares the machine. The test is about equality, not speed.
    }, 180_000);

    it("keeps each visit's missing forms and deviations as the saves make them", async () => {
      // Deterministic where the random sequences reach these only now and then: a woman whose
      // eligibility says "eligible" with an inclusion criterion not met, whose pregnancy test has no
      // result (a required item: the form is incomplete), and whose device was applied on another day
      // than her V2 visit.
      const registered = await as('si', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-01',
        initials: 'VFD',
      });
      expect(registered.statusCode).toBe(201);
      const subjectId = registered.json().id as number;
      const save = async (visitKey: string, formKey: string, values: Record<string, unknown>) => {
        const url = `${subjectUrl(subjectId)}/forms/${visitKey}/${formKey}`;
        const { version } = (await as('si', 'GET', url)).json() as { version: number };
        const reasons = Object.fromEntries(Object.keys(values).map((key) => [key, 'Corrected from source']));
        expect((await as('si', 'PUT', url, { values, version, reasons })).statusCode).toBe(200);
      };
      const sampleOf = (visitKey: string, formKey: string) =>
        structuredClone(sample[visitKey]?.[formKey] ?? {}) as Record<string, unknown>;
      const v2Date = addDays(sampleOf('v2', 'visitDay').visitDate as string, 1) as string;
      await save('v1', 'visitDay', sampleOf('v1', 'visitDay'));
      await save('v1', 'demographicInfo', { ...sampleOf('v1', 'demographicInfo'), gender: 'F' });
      const { result: _, ...pregnancyWithoutResult } = sampleOf('v1', 'pregnancyTest');
      await save('v1', 'pregnancyTest', { ...pregnancyWithoutResult, childbearingPotential: 'Y' });
      const evaluation = sampleOf('v1', 'inclusionExclusionEval');
      await save('v1', 'inclusionExclusionEval', { ...evaluation, eligible: 'Y', inc01: 'N' });
      await save('v2', 'visitDay', { ...sampleOf('v2', 'visitDay'), visitDate: v2Date });
      const device = sampleOf('v2', 'deviceApplication');
      await save('v2', 'deviceApplication', { ...device, applied: 'Y' });

      expect(await storedRows()).toEqual(await recomputedRows());
      const visits = await database()
        .db.selectFrom('subject_visits')
        .selectAll()
        .where('subject_id', '=', subjectId)
        .execute();
      const v1 = visits.find((visit) => visit.visit_key === 'v1');
      const v2 = visits.find((visit) => visit.visit_key === 'v2');
      const v1Forms = tmPerforationStudy.visits.find((visit) => visit.key === 'v1')?.forms ?? [];
      const v1Saved = ['visitDay', 'demographicInfo', 'pregnancyTest', 'inclusionExclusionEval'];
      expect(v1).toMatchObject({
        visit_date: sampleOf('v1', 'visitDay').visitDate,
        empty_forms: v1Forms.filter((formKey) => !v1Saved.includes(formKey)),
        role_facts: { eligibleFailingCriteria: 'inc01', pregnancyTestMissing: 'noResult' },
      });
      expect(v1?.incomplete_forms).toEqual(['pregnancyTest']);
      expect(v2).toMatchObject({
        visit_date: v2Date,
        role_facts: { treatmentAppliedOn: device.applicationDate },
      });
      // The reports' stored rows (issue 46) list what the visits' rows say.
      const reportRows = await database()
        .db.selectFrom('report_rows')
        .select(['report', 'row_key', 'bucket'])
        .where('subject_id', '=', subjectId)
        .execute();
      const keysOf = (report: string) =>
        reportRows.filter((row) => row.report === report).map((row) => `${row.row_key} ${row.bucket}`);
      expect(keysOf('protocolDeviations')).toEqual(
        expect.arrayContaining([
          'eligibleWhileCriterionFails/v1 eligibleWhileCriterionFails',
          'missingPregnancyTest/v1 missingPregnancyTest',
          'treatmentOffVisitDate/v2 treatmentOffVisitDate',
        ]),
      );
      expect(keysOf('missingForms')).toContain('v1/pregnancyTest incomplete');
    });

    it('rebuilds from scratch to the same rows', async () => {
      const before = await storedRows();
      await database().db.deleteFrom('report_rows').execute();
      await database().db.deleteFrom('subject_visit_windows').execute();
      await database().db.deleteFrom('subject_visits').execute();
      await database().db.deleteFrom('subject_facts').execute();
      const result = await rebuildReadModel(database().db);
      expect(result.subjects).toBeGreaterThan(0);
      expect(await storedRows()).toEqual(before);
    });
  },
  { seed: 'demo' },
);
