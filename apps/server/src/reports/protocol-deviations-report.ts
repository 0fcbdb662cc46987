import type { ProtocolDeviationRow, ProtocolDeviationsReport, ReportFilter } from '@cdms/contract';
import { protocolDeviationKinds } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nothingInScope, type ReportContext, visitLabelOf } from './report-context.ts';

/**
 * Protocol deviations (issue 17), four kinds found in SQL over the stored data:
 * - outOfWindow: a visit done before or after its window (`subject_visit_windows`), in days;
 * - eligibleWhileCriterionFails: the eligibility evaluation says "eligible" while an inclusion
 *   criterion is answered "no" or an exclusion criterion "yes" (the criteria are the items of the
 *   form's inclusion and exclusion sections);
 * - deviceOutsideV2: the device application date differs from the V2 visit date;
 * - missingPregnancyTest: a woman (demographics) at a visit done whose pregnancy test form is not
 *   saved, does not say whether she can bear children, or says she can and has no result.
 * Each kind is one SELECT of a UNION ALL; the page, the count per kind and the download read it.
 */

/** Where the facts live in the study's forms (the first study's keys, as `subject-facts.ts` names its own). */
const SOURCES = {
  eligibility: {
    formKey: 'inclusionExclusionEval',
    eligible: 'eligible',
    inclusion: 'inclusion',
    exclusion: 'exclusion',
  },
  device: { visitKey: 'v2', formKey: 'deviceApplication', applied: 'applied', date: 'applicationDate' },
  pregnancy: { formKey: 'pregnancyTest', potential: 'childbearingPotential', result: 'result' },
  gender: { visitKey: 'v1', formKey: 'demographicInfo', item: 'gender', female: 'F' },
} as const;

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

function criterionKeys(definition: StudyDefinition, sectionKey: string): string[] {
  const form = definition.forms.find((entry) => entry.key === SOURCES.eligibility.formKey);
  return form?.sections.find((section) => section.key === sectionKey)?.items.map((item) => item.key) ?? [];
}

/** The stored value of an item of a saved form, as text (`#>> '{}'`: a JSON string without quotes). */
const itemText = (instance: string, itemKey: string) =>
  sql`(select iv.value #>> '{}' from item_values iv
    where iv.form_instance_id = ${sql.ref(`${instance}.id`)} and iv.item_key = ${itemKey})`;

function deviationsSql(context: ReportContext, filter: ReportFilter): RawBuilder<unknown> | null {
  const definition = context.definition;
  const visitDate = definition?.visitDate;
  if (nothingInScope(context) || !definition || !visitDate) return null;
  const sites = sql.join(context.siteIds);
  const subjectsInScope = sql`f.study_id = ${context.studyId} and f.site_id in (${sites})`;
  const dateOfVisit = (subject: RawBuilder<unknown>, visitKey: RawBuilder<unknown>) =>
    sql`(select iv.value #>> '{}' from form_instances d
      join item_values iv on iv.form_instance_id = d.id and iv.item_key = ${visitDate.item}
      where d.subject_id = ${subject} and d.visit_key = ${visitKey} and d.form_key = ${visitDate.form} and d.has_data)`;

  const inclusion = criterionKeys(definition, SOURCES.eligibility.inclusion);
  const exclusion = criterionKeys(definition, SOURCES.eligibility.exclusion);
  const failingCriteria = sql`(select string_agg(iv.item_key, ', ' order by iv.item_key) from item_values iv
      where iv.form_instance_id = fi.id and (
        (iv.item_key in (${sql.join(inclusion.length ? inclusion : [''])}) and iv.value #>> '{}' = 'N')
        or (iv.item_key in (${sql.join(exclusion.length ? exclusion : [''])}) and iv.value #>> '{}' = 'Y')))`;
  const pregnancyVisits = definition.visits
    .filter(
      (visit) => visit.forms.includes(SOURCES.pregnancy.formKey) && visit.forms.includes(visitDate.form),
    )
    .map((visit) => visit.key);

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
        fi.visit_key, ${dateOfVisit(sql`fi.subject_id`, sql`fi.visit_key`)} as date, null::int as days,
        '적합으로 평가, 충족하지 않은 기준: ' || ${failingCriteria} as detail_ko,
        'Eligible while these criteria fail: ' || ${failingCriteria} as detail_en
      from form_instances fi join subject_facts f on f.subject_id = fi.subject_id
      where ${subjectsInScope} and fi.form_key = ${SOURCES.eligibility.formKey} and fi.has_data
        and ${itemText('fi', SOURCES.eligibility.eligible)} = 'Y' and ${failingCriteria} is not null`,
    deviceOutsideV2: sql`select f.site_id, f.subject_id, 'deviceOutsideV2' as kind, fi.visit_key,
        ${itemText('fi', SOURCES.device.date)} as date,
        ${itemText('fi', SOURCES.device.date)}::date - ${dateOfVisit(sql`fi.subject_id`, sql`fi.visit_key`)}::date as days,
        'V2 방문일 ' || ${dateOfVisit(sql`fi.subject_id`, sql`fi.visit_key`)} as detail_ko,
        'V2 visit date ' || ${dateOfVisit(sql`fi.subject_id`, sql`fi.visit_key`)} as detail_en
      from form_instances fi join subject_facts f on f.subject_id = fi.subject_id
      where ${subjectsInScope} and fi.visit_key = ${SOURCES.device.visitKey} and fi.form_key = ${SOURCES.device.formKey}
        and fi.has_data and ${itemText('fi', SOURCES.device.applied)} = 'Y'
        and ${itemText('fi', SOURCES.device.date)} <> ${dateOfVisit(sql`fi.subject_id`, sql`fi.visit_key`)}`,
    missingPregnancyTest:
      pregnancyVisits.length === 0
        ? sql`select null::int as site_id, null::int as subject_id, null as kind, null as visit_key, null as date,
            null::int as days, null as detail_ko, null as detail_en where false`
        : sql`select f.site_id, f.subject_id, 'missingPregnancyTest' as kind, vd.visit_key,
        ${itemText('vd', visitDate.item)} as date, null::int as days,
        case when p.id is null or not p.has_data or ${itemText('p', SOURCES.pregnancy.potential)} is null
          then '가임 여부 미기록' else '가임 여성, 결과 없음' end as detail_ko,
        case when p.id is null or not p.has_data or ${itemText('p', SOURCES.pregnancy.potential)} is null
          then 'Childbearing potential not recorded' else 'Woman of childbearing potential, no result' end as detail_en
      from form_instances vd
      join subject_facts f on f.subject_id = vd.subject_id
      join form_instances g on g.subject_id = vd.subject_id and g.visit_key = ${SOURCES.gender.visitKey}
        and g.form_key = ${SOURCES.gender.formKey} and g.has_data
      left join form_instances p on p.subject_id = vd.subject_id and p.visit_key = vd.visit_key
        and p.form_key = ${SOURCES.pregnancy.formKey}
      where ${subjectsInScope} and vd.form_key = ${visitDate.form} and vd.has_data
        and vd.visit_key in (${sql.join(pregnancyVisits)})
        and ${itemText('g', SOURCES.gender.item)} = ${SOURCES.gender.female}
        and (p.id is null or not p.has_data or ${itemText('p', SOURCES.pregnancy.potential)} is null
          or (${itemText('p', SOURCES.pregnancy.potential)} = 'Y' and ${itemText('p', SOURCES.pregnancy.result)} is null))`,
  };
  const kinds = filter.deviation === 'all' ? protocolDeviationKinds : [filter.deviation];
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
  if (!base) return { report: 'protocolDeviations', total: 0, ...page, rows: [], byKind: [] };
  const [rows, byKind] = await Promise.all([
    sql<DeviationRow>`${base} select * from deviations ${ORDER}
      limit ${page.size} offset ${(page.page - 1) * page.size}`.execute(db),
    sql<{ kind: ProtocolDeviationRow['kind']; count: number | string }>`${base}
      select kind, count(*) as count from deviations group by kind`.execute(db),
  ]);
  const counts = new Map(byKind.rows.map((row) => [row.kind, Number(row.count)]));
  return {
    report: 'protocolDeviations',
    total: [...counts.values()].reduce((sum, count) => sum + count, 0),
    ...page,
    rows: rows.rows.map((row) => presentRow(context, row)),
    byKind: protocolDeviationKinds.map((kind) => ({ kind, count: counts.get(kind) ?? 0 })),
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
