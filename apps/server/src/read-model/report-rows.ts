import { type ProtocolDeviationKind, protocolDeviationKinds } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { sendUnanswered } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { visitLabelOf } from '../studies/definition-labels.ts';
import { fromChosenFacts, padded, rowColumns } from './report-row-columns.ts';
import { summaryRows } from './summary-rows.ts';

/**
 * The reports' rows, stored per subject (issue 46): the adverse events (one row per event of the
 * `adverseEvents` role's repeating group), the events of interest (one row per saved form of the
 * `eventsOfInterest` role, and one per event answered "yes" on it), the protocol deviations, the
 * missing forms, the enrollment (a subject screened, failed, randomized: by month) and the query aging
 * (each query's state by the day it was opened, its days to an answer and to closing). Worked out per
 * request, each of these read every row of the trial, sorted it and counted it (× 3.2–8.3 from 500
 * to 5,000 subjects); stored, a listing reads its page in order from an index and every report its
 * counts from `report_row_totals`, which a trigger keeps (docs/decisions/subject-fact-totals.md).
 *
 * The rows are computed in SQL from the subject's other read-model rows (`subject_facts`,
 * `subject_visits`, `subject_visit_windows`, refreshed first) and, for the events, from the forms'
 * values, by `refreshReportRows` — after every refresh of the subject's facts, in its transaction,
 * and by the rebuild. Nothing here depends on today: a missing form of a visit not done counts from
 * the day after its window closes (`counts_from`), which the reader compares with today.
 *
 * A row: `bucket` is what the report filters and counts by, the order is `sort_date`, then site and
 * subject, then `sort_rest`; `payload` what the report shows beyond the subject.
 */

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The deviation kinds a study can have: windows always; the others only with the role that finds
 * them (a study without a pregnancy test has no count of missing ones to show).
 */
export function deviationKindsOf(definition: StudyDefinition | null): ProtocolDeviationKind[] {
  const roles = definition?.roles ?? {};
  const needs: Record<ProtocolDeviationKind, boolean> = {
    outOfWindow: true,
    eligibleWhileCriterionFails: roles.eligibility !== undefined,
    treatmentOffVisitDate: roles.treatmentApplication !== undefined,
    missingPregnancyTest: roles.pregnancyTest !== undefined && roles.demographics !== undefined,
  };
  return protocolDeviationKinds.filter((kind) => needs[kind]);
}

/**
 * The (visit, form) pairs a missing-forms row can be for, in the definition's order: the forms of
 * the scheduled visits (those with the visit-date form: not consent, not "all").
 */
function expectedForms(definition: StudyDefinition): { visitKey: string; formKey: string; order: number }[] {
  const dateForm = definition.visitDate?.form;
  if (!dateForm) return [];
  const pairs: { visitKey: string; formKey: string; order: number }[] = [];
  for (const visit of definition.visits) {
    if (!visit.forms.includes(dateForm)) continue;
    for (const formKey of visit.forms) pairs.push({ visitKey: visit.key, formKey, order: pairs.length });
  }
  return pairs;
}

/**
 * Whether the report rows read this form's values themselves: the events' forms. The others' rows
 * follow the subject's facts and visits, refreshed with them.
 */
export function isReportSourceForm(definition: StudyDefinition, formKey: string): boolean {
  const roles = definition.roles ?? {};
  return formKey === roles.adverseEvents?.form || formKey === roles.eventsOfInterest?.form;
}

function adverseEventRows(definition: StudyDefinition): RawBuilder<unknown> | null {
  const role = definition.roles?.adverseEvents;
  if (!role) return null;
  return sql`select ${rowColumns({
    report: 'adverseEvents',
    rowKey: padded(sql`e.ordinality`),
    groupKey: sql`fi.visit_key`,
    bucket: sql`case when e.value ->> ${role.serious} = 'Y' then 'serious' else 'other' end`,
    sortRest: padded(sql`e.ordinality`),
    payload: sql`jsonb_build_object('eventNumber', e.ordinality, 'event', e.value)`,
  })}
    ${fromChosenFacts}
    join form_instances fi on fi.subject_id = c.subject_id
    join item_values iv on iv.form_instance_id = fi.id and iv.item_key = ${role.rows}
    cross join lateral jsonb_array_elements(
      case when jsonb_typeof(iv.value) = 'array' then iv.value else '[]'::jsonb end
    ) with ordinality as e(value, ordinality)
    where fi.visit_key = ${role.visit} and fi.form_key = ${role.form} and fi.has_data
      and jsonb_typeof(e.value) = 'object'`;
}

function eventOfInterestRows(definition: StudyDefinition): RawBuilder<unknown> | null {
  const role = definition.roles?.eventsOfInterest;
  if (!role) return null;
  // The form itself (bucket ''), then each of the role's events answered "yes" on it.
  return sql`select ${rowColumns({
    report: 'eventsOfInterest',
    rowKey: sql`fi.visit_key || '/' || answered.item_key`,
    groupKey: sql`fi.visit_key`,
    bucket: sql`answered.item_key`,
  })}
    ${fromChosenFacts}
    join form_instances fi on fi.subject_id = c.subject_id
    cross join lateral (
      select '' as item_key
      union all
      select iv.item_key from item_values iv
      where iv.form_instance_id = fi.id and iv.item_key in (${sql.join(role.items)})
        and iv.value #>> '{}' = 'Y'
    ) answered
    where fi.form_key = ${role.form} and fi.has_data`;
}

function deviationRows(definition: StudyDefinition): RawBuilder<unknown> | null {
  if (!definition.visitDate) return null;
  const applicationVisit = definition.roles?.treatmentApplication?.visit;
  const treatmentVisit = applicationVisit ? visitLabelOf(definition, applicationVisit) : { ko: '', en: '' };
  const visitOrder = sql`array_position(array[${sql.join(definition.visits.map((visit) => visit.key))}]::text[], d.visit_key)`;
  const visitsWith = (found: RawBuilder<unknown>) =>
    sql`from chosen c join subject_visits v on v.subject_id = c.subject_id where ${found}`;
  const parts: Record<ProtocolDeviationKind, RawBuilder<unknown>> = {
    outOfWindow: sql`select w.subject_id, 'outOfWindow' as kind, w.visit_key, w.actual_date::text as date,
        case when w.actual_date < w.earliest_date then w.actual_date - w.earliest_date
             else w.actual_date - w.latest_date end as days,
        '허용 범위 ' || w.earliest_date::text || ' ~ ' || w.latest_date::text as detail_ko,
        'Window ' || w.earliest_date::text || ' to ' || w.latest_date::text as detail_en
      from chosen c join subject_visit_windows w on w.subject_id = c.subject_id
      where w.actual_date is not null and (w.actual_date < w.earliest_date or w.actual_date > w.latest_date)`,
    eligibleWhileCriterionFails: sql`select v.subject_id, 'eligibleWhileCriterionFails' as kind,
        v.visit_key, v.visit_date::text as date, null::int as days,
        '적합으로 평가, 충족하지 않은 기준: ' || (v.role_facts ->> 'eligibleFailingCriteria') as detail_ko,
        'Eligible while these criteria fail: ' || (v.role_facts ->> 'eligibleFailingCriteria') as detail_en
      ${visitsWith(sql`v.role_facts ? 'eligibleFailingCriteria'`)}`,
    treatmentOffVisitDate: sql`select v.subject_id, 'treatmentOffVisitDate' as kind, v.visit_key,
        v.role_facts ->> 'treatmentAppliedOn' as date,
        (v.role_facts ->> 'treatmentAppliedOn')::date - v.visit_date as days,
        ${treatmentVisit.ko} || ' 방문일 ' || v.visit_date::text as detail_ko,
        ${treatmentVisit.en} || ' visit date ' || v.visit_date::text as detail_en
      ${visitsWith(sql`v.role_facts ? 'treatmentAppliedOn'`)}`,
    missingPregnancyTest: sql`select v.subject_id, 'missingPregnancyTest' as kind, v.visit_key,
        v.visit_date::text as date, null::int as days,
        case when v.role_facts ->> 'pregnancyTestMissing' = 'notRecorded'
          then '가임 여부 미기록' else '가임 여성, 결과 없음' end as detail_ko,
        case when v.role_facts ->> 'pregnancyTestMissing' = 'notRecorded'
          then 'Childbearing potential not recorded' else 'Woman of childbearing potential, no result' end as detail_en
      ${visitsWith(sql`v.role_facts ? 'pregnancyTestMissing'`)}`,
  };
  const union = sql.join(
    deviationKindsOf(definition).map((kind) => sql`(${parts[kind]})`),
    sql` union all `,
  );
  return sql`select ${rowColumns({
    report: 'protocolDeviations',
    rowKey: sql`d.kind || '/' || d.visit_key`,
    groupKey: sql`d.visit_key`,
    bucket: sql`d.kind`,
    sortRest: sql`${padded(visitOrder)} || '/' || d.kind`,
    payload: sql`jsonb_build_object('kind', d.kind, 'visitKey', d.visit_key, 'date', d.date, 'days', d.days,
      'detailKo', d.detail_ko, 'detailEn', d.detail_en)`,
  })}
    from (${union}) d
    join subject_facts f on f.subject_id = d.subject_id`;
}

function missingFormRows(definition: StudyDefinition): RawBuilder<unknown> | null {
  const expected = expectedForms(definition);
  if (expected.length === 0) return null;
  const values = sql.join(
    expected.map((pair) => sql`(${pair.visitKey}::text, ${pair.formKey}::text, ${pair.order}::int)`),
  );
  // A visit's empty and incomplete forms count once it is done, or — not done, its subject in
  // follow-up — from the day after its window closes. Other visits' forms are not missing.
  return sql`select ${rowColumns({
    report: 'missingForms',
    rowKey: sql`m.visit_key || '/' || m.form_key`,
    groupKey: sql`m.visit_key`,
    bucket: sql`m.state`,
    countsFrom: sql`case when m.visit_date is null then m.window_closes + 1 end`,
    sortDate: sql`coalesce(m.visit_date, m.window_closes)`,
    sortRest: padded(sql`e.form_order`),
    payload: sql`jsonb_build_object('visitKey', m.visit_key, 'formKey', m.form_key, 'state', m.state,
      'dueDate', coalesce(m.visit_date, m.window_closes)::text)`,
  })}
    from (
      select v.subject_id, v.visit_key, v.visit_date, v.window_closes, forms.form_key, forms.state
      from chosen c
      join subject_visits v on v.subject_id = c.subject_id
      cross join lateral (
        select unnest(v.empty_forms) as form_key, 'empty' as state
        union all select unnest(v.incomplete_forms), 'incomplete'
      ) forms
    ) m
    join subject_facts f on f.subject_id = m.subject_id
    join (values ${values}) e(visit_key, form_key, form_order)
      on e.visit_key = m.visit_key and e.form_key = m.form_key
    where m.visit_date is not null or (f.status = 'ongoing' and m.window_closes is not null)`;
}

/**
 * The enrollment report's rows (counted, not listed): every subject screened in its consent month; a
 * screening failure in that month too, and under its reason; a randomized subject under the month
 * (UTC+9) it was randomized ('' when the time is unknown).
 */
function enrollmentRows(): RawBuilder<unknown> {
  return sql`select ${rowColumns({
    report: 'enrollment',
    rowKey: sql`e.row_key`,
    groupKey: sql`e.group_key`,
    bucket: sql`e.row_key`,
  })}
    ${fromChosenFacts}
    cross join lateral (
      select 'screened' as row_key, f.consent_month as group_key
      union all select 'screeningFailure', f.consent_month where f.status = 'screening_failure'
      union all select 'failureReason', coalesce(f.screening_failure_reason, '')
        where f.status = 'screening_failure'
      union all select 'randomized',
          coalesce(to_char((f.randomized_at at time zone 'UTC') + interval '9 hours', 'YYYY-MM'), '')
        where f.randomization_number is not null
    ) e`;
}

/** A timestamp's day in UTC+9, the day the reports count in. */
const koreanDay = (column: RawBuilder<unknown>) =>
  sql`((${column} at time zone 'UTC') + interval '9 hours')::date`;

/**
 * The query aging report's rows (counted, not listed), per query of the subject: an unresolved one
 * under its state by the day it was opened (its age is counted from today when read); one answered
 * under its whole days to the first answer; a closed one under its days to closing.
 */
function queryAgingRows(): RawBuilder<unknown> {
  const opened = koreanDay(sql`q.opened_at`);
  const firstAnswer = sql`(select ${koreanDay(sql`m.created_at`)} from query_messages m
    where m.query_id = q.id and m.kind = 'answer' order by m.created_at, m.id limit 1)`;
  return sql`select ${rowColumns({
    report: 'queryAging',
    rowKey: sql`q.id || '/' || aged.bucket`,
    groupKey: sql`aged.group_key`,
    bucket: sql`aged.bucket`,
  })}
    ${fromChosenFacts}
    join queries q on q.subject_id = c.subject_id
    cross join lateral (
      select q.status::text as bucket, ${opened}::text as group_key where q.status in ('open', 'answered')
      union all select 'daysToAnswer', (${firstAnswer} - ${opened})::text where ${firstAnswer} is not null
      union all select 'daysToClose', (${koreanDay(sql`q.closed_at`)} - ${opened})::text
        where q.status = 'closed' and q.closed_at is not null
    ) aged`;
}

/** Every report's rows of the subjects in the CTE `chosen (subject_id)`, as one SELECT. */
export function reportRowsSql(definition: StudyDefinition): RawBuilder<unknown> | null {
  const parts = [
    adverseEventRows(definition),
    eventOfInterestRows(definition),
    deviationRows(definition),
    missingFormRows(definition),
    enrollmentRows(),
    queryAgingRows(),
    ...summaryRows(definition),
  ].filter((part): part is RawBuilder<unknown> => part !== null);
  if (parts.length === 0) return null;
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union all `,
  );
}

/** The subjects `ids` (not deleted) as the CTE `chosen (subject_id)` the parts read. */
const chosenSubjects = (subjectIds: number[]) => sql`chosen(subject_id) as (
    select s.id from subjects s where s.id = any(${subjectIds}::int[]) and s.deleted_at is null)`;

/** The column list of `report_rows`, in the order every part selects. */
const COLUMNS = sql`subject_id, report, row_key, study_id, site_id, group_key, bucket, counts_from,
  sort_date, site_code, screening_number, sort_rest, payload, value`;

/**
 * The report rows the data give for these subjects, as `report_rows` would hold them: what the
 * read-model property test compares the stored rows with.
 */
export async function computeReportRows(
  executor: Executor,
  definition: StudyDefinition,
  subjectIds: number[],
) {
  const rows = reportRowsSql(definition);
  if (!rows || subjectIds.length === 0) return [];
  const result = await sql<Record<string, unknown>>`with ${chosenSubjects(subjectIds)}
    select ${COLUMNS} from (${rows}) wanted order by subject_id, report, row_key`.execute(executor);
  return result.rows;
}

/**
 * Makes the report rows of these subjects what their data give (none for a deleted subject or a
 * study without a definition). Only rows that differ are written: a save that moves none of the
 * reports costs no new row version and no delta of the totals.
 *
 * Sent without waiting for its answer (`sendUnanswered`): nothing before COMMIT reads these rows,
 * and the database runs it after the statements sent before it — the facts, visits and windows it is
 * computed from. A save's round trips stay as they were; `inTransaction` waits for it and fails the
 * transaction with it.
 */
export function refreshReportRows(
  trx: Transaction<Database>,
  definition: StudyDefinition | undefined,
  subjectIds: number[],
): void {
  if (subjectIds.length === 0) return;
  const rows = definition ? reportRowsSql(definition) : null;
  const statement = rows
    ? sql`with ${chosenSubjects(subjectIds)},
      wanted as (${rows}),
      gone as (
        delete from report_rows r
        where r.subject_id = any(${subjectIds}::int[])
          and not exists (select 1 from wanted w
            where w.subject_id = r.subject_id and w.report = r.report and w.row_key = r.row_key)
      )
      insert into report_rows (${COLUMNS})
      select * from wanted
      on conflict (subject_id, report, row_key) do update set
        study_id = excluded.study_id, site_id = excluded.site_id, group_key = excluded.group_key,
        bucket = excluded.bucket, counts_from = excluded.counts_from, sort_date = excluded.sort_date,
        site_code = excluded.site_code, screening_number = excluded.screening_number,
        sort_rest = excluded.sort_rest, payload = excluded.payload, value = excluded.value
      where (report_rows.*) is distinct from (excluded.*)`
    : sql`delete from report_rows where subject_id = any(${subjectIds}::int[])`;
  sendUnanswered(trx, statement.compile(trx));
}
