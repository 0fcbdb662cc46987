import type { ProtocolDeviationRow, ProtocolDeviationsReport, ReportFilter } from '@cdms/contract';
import { protocolDeviationKinds } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { visitLabelOf } from '../studies/definition-labels.ts';
import { nothingInScope, type PageRow, type ReportContext } from './report-context.ts';

/**
 * Protocol deviations (issue 17), four kinds:
 * - outOfWindow: a visit done before or after its window (`subject_visit_windows`), in days;
 * - eligibleWhileCriterionFails: the eligibility evaluation says "eligible" while an inclusion
 *   criterion is answered "no" or an exclusion criterion "yes" (the criteria are the items of the
 *   form's inclusion and exclusion sections);
 * - treatmentOffVisitDate: the investigational treatment's date differs from the date of the visit it
 *   is applied at (the `treatmentApplication` role);
 * - missingPregnancyTest: a woman (demographics) at a visit done whose pregnancy test form is not
 *   saved, does not say whether she can bear children, or says she can and has no result.
 * The last three are found where a subject's forms are saved (`subjects/visit-facts.ts`) and stored
 * in the visit's read-model row (`subject_visits.role_facts`): read here per request they meant correlated
 * subqueries over the item values of every eligibility, device and pregnancy form of the trial
 * (0.3–1 s at 5,000 subjects). Each kind is one SELECT of a UNION ALL; the page, the count per kind
 * and the download read it.
 */

interface DeviationRow {
  site_code: string;
  subject_id: number;
  screening_number: string;
  kind: ProtocolDeviationRow['kind'];
  visit_key: string;
  date: string | null;
  days: number | string | null;
  detail_ko: string;
  detail_en: string;
}

/**
 * The kinds a study can have: windows always; the others only with the role that finds them (a study
 * without a pregnancy test has no count of missing ones to show).
 */
export function deviationKindsOf(definition: StudyDefinition | null): ProtocolDeviationRow['kind'][] {
  const roles = definition?.roles ?? {};
  const needs: Record<ProtocolDeviationRow['kind'], boolean> = {
    outOfWindow: true,
    eligibleWhileCriterionFails: roles.eligibility !== undefined,
    treatmentOffVisitDate: roles.treatmentApplication !== undefined,
    missingPregnancyTest: roles.pregnancyTest !== undefined && roles.demographics !== undefined,
  };
  return protocolDeviationKinds.filter((kind) => needs[kind]);
}

function deviationsSql(context: ReportContext, filter: ReportFilter): RawBuilder<unknown> | null {
  const definition = context.definition;
  if (nothingInScope(context) || !definition?.visitDate) return null;
  const sites = sql.join(context.siteIds);
  const subjectsInScope = sql`f.study_id = ${context.studyId} and f.site_id in (${sites})`;
  const applicationVisit = definition.roles?.treatmentApplication?.visit;
  const treatmentVisit = applicationVisit ? visitLabelOf(definition, applicationVisit) : { ko: '', en: '' };
  const visitsWith = (found: RawBuilder<unknown>) =>
    sql`from subject_visits v join subject_facts f on f.subject_id = v.subject_id
      where ${subjectsInScope} and ${found}`;

  const parts: Record<ProtocolDeviationRow['kind'], RawBuilder<unknown>> = {
    outOfWindow: sql`select f.site_id, f.subject_id, 'outOfWindow' as kind, w.visit_key, w.actual_date::text as date,
        case when w.actual_date < w.earliest_date then w.actual_date - w.earliest_date
             else w.actual_date - w.latest_date end as days,
        '허용 범위 ' || w.earliest_date::text || ' ~ ' || w.latest_date::text as detail_ko,
        'Window ' || w.earliest_date::text || ' to ' || w.latest_date::text as detail_en
      from subject_visit_windows w join subject_facts f on f.subject_id = w.subject_id
      where ${subjectsInScope} and w.actual_date is not null
        and (w.actual_date < w.earliest_date or w.actual_date > w.latest_date)`,
    eligibleWhileCriterionFails: sql`select f.site_id, f.subject_id, 'eligibleWhileCriterionFails' as kind,
        v.visit_key, v.visit_date::text as date, null::int as days,
        '적합으로 평가, 충족하지 않은 기준: ' || (v.role_facts ->> 'eligibleFailingCriteria') as detail_ko,
        'Eligible while these criteria fail: ' || (v.role_facts ->> 'eligibleFailingCriteria') as detail_en
      ${visitsWith(sql`v.role_facts ? 'eligibleFailingCriteria'`)}`,
    treatmentOffVisitDate: sql`select f.site_id, f.subject_id, 'treatmentOffVisitDate' as kind, v.visit_key,
        v.role_facts ->> 'treatmentAppliedOn' as date,
        (v.role_facts ->> 'treatmentAppliedOn')::date - v.visit_date as days,
        ${treatmentVisit.ko} || ' 방문일 ' || v.visit_date::text as detail_ko,
        ${treatmentVisit.en} || ' visit date ' || v.visit_date::text as detail_en
      ${visitsWith(sql`v.role_facts ? 'treatmentAppliedOn'`)}`,
    missingPregnancyTest: sql`select f.site_id, f.subject_id, 'missingPregnancyTest' as kind, v.visit_key,
        v.visit_date::text as date, null::int as days,
        case when v.role_facts ->> 'pregnancyTestMissing' = 'notRecorded'
          then '가임 여부 미기록' else '가임 여성, 결과 없음' end as detail_ko,
        case when v.role_facts ->> 'pregnancyTestMissing' = 'notRecorded'
          then 'Childbearing potential not recorded' else 'Woman of childbearing potential, no result' end as detail_en
      ${visitsWith(sql`v.role_facts ? 'pregnancyTestMissing'`)}`,
  };
  const studyKinds = deviationKindsOf(definition);
  const kinds =
    filter.deviation === 'all' ? studyKinds : studyKinds.filter((kind) => kind === filter.deviation);
  if (kinds.length === 0) return null;
  const union = sql.join(
    kinds.map((kind) => sql`(${parts[kind]})`),
    sql` union all `,
  );
  const visitOrder = sql.join(definition.visits.map((visit) => visit.key));
  return sql`with deviations as (
      select s.code as site_code, d.subject_id, f.screening_number, d.kind, d.visit_key, d.date, d.days,
        d.detail_ko, d.detail_en,
        array_position(array[${visitOrder}]::text[], d.visit_key) as visit_order
      from (${union}) d
      join subject_facts f on f.subject_id = d.subject_id
      join sites s on s.id = d.site_id)`;
}

const ORDER = sql`order by site_code collate "C", screening_number collate "C", visit_order, kind`;

function presentRow(context: ReportContext, row: DeviationRow): ProtocolDeviationRow {
  return {
    siteCode: row.site_code,
    subjectPk: Number(row.subject_id),
    subjectId: row.screening_number,
    kind: row.kind,
    visitKey: row.visit_key,
    visitLabel: visitLabelOf(context.definition, row.visit_key),
    date: row.date,
    days: row.days === null ? null : Number(row.days),
    detail: { ko: row.detail_ko, en: row.detail_en },
  };
}

export async function protocolDeviationsReport(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
  page: { page: number; size: number },
): Promise<ProtocolDeviationsReport> {
  const base = deviationsSql(context, filter);
  const byKind = (counts: Map<string, number>) =>
    deviationKindsOf(context.definition).map((kind) => ({ kind, count: counts.get(kind) ?? 0 }));
  if (!base) return { report: 'protocolDeviations', total: 0, ...page, rows: [], byKind: byKind(new Map()) };
  // One statement, so the deviations are found once for the page and the counts: the counts per
  // kind as one JSON value (one row), the page's rows joined to it (none past the end).
  const result = await sql<
    PageRow<DeviationRow> & { by_kind: { kind: string; count: number | string }[] }
  >`${base}
    select p.*, c.by_kind
    from (
      select coalesce(json_agg(g), '[]') as by_kind
      from (select kind, count(*) as count from deviations group by kind) g
    ) c
    left join (
      select * from deviations ${ORDER} limit ${page.size} offset ${(page.page - 1) * page.size}
    ) p on true
    ${ORDER}`.execute(db);
  const counts = new Map((result.rows[0]?.by_kind ?? []).map((row) => [row.kind, Number(row.count)]));
  const rows = result.rows.filter((row) => row.subject_id !== null) as DeviationRow[];
  return {
    report: 'protocolDeviations',
    total: [...counts.values()].reduce((sum, count) => sum + count, 0),
    ...page,
    rows: rows.map((row) => presentRow(context, row)),
    byKind: byKind(counts),
  };
}

const CHUNK = 500;

export async function* allProtocolDeviations(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
): AsyncGenerator<ProtocolDeviationRow[]> {
  const base = deviationsSql(context, filter);
  if (!base) return;
  for (let offset = 0; ; offset += CHUNK) {
    const rows = await sql<DeviationRow>`${base} select * from deviations ${ORDER}
      limit ${CHUNK} offset ${offset}`.execute(db);
    yield rows.rows.map((row) => presentRow(context, row));
    if (rows.rows.length < CHUNK) return;
  }
}
