import {
  refuseUnderHolds,
  type SdvFormRef,
  type SdvNextResponse,
  type SdvSitesResponse,
  type SdvSubjectResponse,
  type SdvSubjectRow,
  type SdvSubjectsResponse,
  type sdvNextQuerySchema,
  type sdvSubjectsQuerySchema,
} from '@cdms/contract';
import { orderVisitKeys, resolveVisit } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { can, type SiteScope, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inSiteScope } from '../auth/site-scope-sql.ts';
import { loadSubjectData } from '../data-entry/form-data.ts';
import { scheduledVisitDates } from '../data-entry/form-queries.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { holdsOver, subjectTarget } from '../locks/holds-in-force.ts';
import { formStateOf } from '../sdv-state/form-sdv.ts';
import { loadSdvPlan } from '../sdv-state/sdv-plan.ts';
import {
  type SdvKeySets,
  type SdvPlanRule,
  sdvKeySets,
  subjectFullyPlanned,
} from '../sdv-state/sdv-rules.ts';
import { presentCounts, type SdvCountColumns, sdvCtes } from '../sdv-state/sdv-sql.ts';
import { presentListedSubject } from '../subjects/listed-subject.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';
import { listUnscheduledVisits } from '../unscheduled-visits/unscheduled-visits.ts';
import { narrowToSite, readerScope } from '../visit-alarms/reader-scope.ts';

/**
 * The SDV progress read-outs of `/sdv/{id}`: by site, by subject (filtered, sorted and paged), one
 * subject by visit and form, and the monitor's next form. Everything is counted in SQL over the
 * reader's sites (sdv-sql.ts), against the study's plan; only a page of rows leaves the database.
 */

export type SdvSubjectsQuery = z.output<typeof sdvSubjectsQuerySchema>;
export type SdvNextQuery = z.output<typeof sdvNextQuerySchema>;

interface SdvContext {
  studyId: number;
  plan: SdvPlanRule;
  keys: SdvKeySets;
  scope: SiteScope;
}

async function sdvContext(db: Kysely<Database>, principal: Principal, studyId: number, siteId?: number) {
  const reader = await readerScope(db, principal, studyId);
  const scope = narrowToSite(reader, siteId);
  const plan = await loadSdvPlan(db, studyId);
  const keys = reader.definition ? sdvKeySets(reader.definition) : { verifiable: [], critical: [] };
  return { reader, context: { studyId, plan, keys, scope } satisfies SdvContext };
}

/**
 * Per subject in scope: its counts against the plan, as the read model keeps them (`subject_facts`,
 * refreshed by every save and SDV mark, rebuilt when the plan changes): one row per subject, however
 * many item values the trial holds.
 */
function subjectSdvCte(context: SdvContext): RawBuilder<unknown> {
  return sql`subject_sdv as (
      select f.subject_id, f.site_id, f.sdv_site_rank as site_rank,
        f.sdv_planned_items as planned_items, f.sdv_verified_items as verified_items,
        f.sdv_changed_items as changed_items, f.sdv_planned_forms as planned_forms,
        f.sdv_complete_forms as complete_forms
      from subject_facts f
      where f.study_id = ${context.studyId} and ${inSiteScope('f.site_id', context.scope)}
    )`;
}

/**
 * `GET …/sdv/sites`: every site in the reader's scope with its subjects' counts, and their sums. Added
 * up from `sdv_site_totals` (a few delta rows per site, kept by a trigger on `subject_facts`), not
 * from every subject's facts row: the same cost at 500 subjects as at 5,000.
 */
export async function sdvSites(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<SdvSitesResponse> {
  const { reader, context } = await sdvContext(db, principal, studyId);
  type Row = SdvCountColumns & { site_id: number; subjects: number; complete_subjects: number };
  const result = await sql<Row>`
    select site_id, sum(subjects)::int as subjects, sum(complete_subjects)::int as complete_subjects,
      sum(planned_items)::int as planned_items, sum(verified_items)::int as verified_items,
      sum(changed_items)::int as changed_items, sum(planned_forms)::int as planned_forms,
      sum(complete_forms)::int as complete_forms
    from sdv_site_totals
    where study_id = ${studyId} and ${inSiteScope('site_id', context.scope)}
    group by site_id`.execute(db);
  const bySite = new Map(result.rows.map((row) => [row.site_id, row]));
  const empty: Row = {
    site_id: 0,
    subjects: 0,
    complete_subjects: 0,
    planned_items: 0,
    verified_items: 0,
    changed_items: 0,
    planned_forms: 0,
    complete_forms: 0,
  };
  const total = { ...empty };
  const sites = reader.sites.map((site) => {
    const row = bySite.get(site.id) ?? empty;
    for (const key of Object.keys(total) as (keyof Row)[]) total[key] += row[key];
    return {
      siteId: site.id,
      site: site.code,
      siteName: site.name,
      subjects: row.subjects,
      completeSubjects: row.complete_subjects,
      counts: presentCounts(row),
    };
  });
  return {
    sites,
    study: {
      subjects: total.subjects,
      completeSubjects: total.complete_subjects,
      counts: presentCounts(total),
    },
    plan: { mode: context.plan.mode, firstSubjectsPerSite: context.plan.firstSubjectsPerSite },
  };
}

type SubjectRowColumns = SdvCountColumns & {
  subject_id: number;
  site_id: number;
  site_rank: number;
  screening_number: string;
  randomization_number: string | null;
  site_code: string;
};

function presentSubjectRow(row: SubjectRowColumns, plan: SdvPlanRule): SdvSubjectRow {
  return {
    ...presentListedSubject(row),
    planScope: subjectFullyPlanned(plan, Number(row.site_rank)) ? 'all' : 'critical',
    counts: presentCounts(row),
  };
}

/**
 * The list's sort keys over `subject_facts`, written as its indexes are (migrations 2026-11-25T1230,
 * 2026-11-30T1300, 2026-12-06T1900), so that by screening number, site or percent verified the page
 * comes off an index in order and the scan stops after it.
 */
function subjectSortExpression(sort: SdvSubjectsQuery['sort']): RawBuilder<unknown> {
  switch (sort) {
    case 'subjectId':
      return sql`f.screening_number collate "C"`;
    case 'site':
      return sql`f.site_code collate "C"`;
    case 'percent':
      // Nothing planned sorts as complete (100 %).
      return sql`(case when f.sdv_planned_items = 0 then 100 else (f.sdv_verified_items * 100) / f.sdv_planned_items end)`;
    case 'plannedItems':
      return sql`f.sdv_planned_items`;
    case 'verifiedItems':
      return sql`f.sdv_verified_items`;
    case 'changedItems':
      return sql`f.sdv_changed_items`;
  }
}

/** The state filter's condition on a facts row, and the column of `sdv_site_totals` that counts it. */
const stateFilters = {
  all: { condition: sql<boolean>`true`, total: 'subjects' },
  incomplete: {
    condition: sql<boolean>`f.sdv_complete_forms < f.sdv_planned_forms`,
    total: 'incomplete_subjects',
  },
  complete: {
    condition: sql<boolean>`f.sdv_complete_forms = f.sdv_planned_forms`,
    total: 'complete_subjects',
  },
  changed: { condition: sql<boolean>`f.sdv_changed_items > 0`, total: 'changed_subjects' },
} as const satisfies Record<SdvSubjectsQuery['state'], { condition: RawBuilder<boolean>; total: string }>;

/**
 * `GET …/sdv/subjects`: one page of subjects with their counts, read from `subject_facts` alone (it
 * holds the screening and randomization numbers and the site's code). Without a search the total
 * is a sum of the site totals (`sdv_site_totals`) and the page needs no count over the rows.
 */
export async function sdvSubjects(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: SdvSubjectsQuery,
): Promise<SdvSubjectsResponse> {
  const { context } = await sdvContext(db, principal, studyId, query.siteId);
  const search = query.subject?.toLowerCase();
  const state = stateFilters[query.state];
  const conditions: RawBuilder<boolean>[] = [
    sql<boolean>`f.study_id = ${studyId}`,
    inSiteScope('f.site_id', context.scope),
    state.condition,
  ];
  if (search) {
    // strpos, not LIKE: `%` and `_` in the search mean themselves.
    conditions.push(sql<boolean>`(strpos(lower(f.screening_number), ${search}) > 0
      or strpos(lower(coalesce(f.randomization_number, '')), ${search}) > 0)`);
  }
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const offset = (query.page - 1) * query.size;
  const page = (count: RawBuilder<unknown>) => sql<SubjectRowColumns & { total: number }>`
    select f.subject_id, f.site_id, f.sdv_site_rank as site_rank, f.sdv_planned_items as planned_items,
      f.sdv_verified_items as verified_items, f.sdv_changed_items as changed_items,
      f.sdv_planned_forms as planned_forms, f.sdv_complete_forms as complete_forms,
      f.screening_number, f.randomization_number, f.site_code${count}
    from subject_facts f
    where ${sql.join(conditions, sql` and `)}
    order by ${subjectSortExpression(query.sort)} ${direction}, f.screening_number collate "C", f.subject_id
    limit ${query.size} offset ${offset}`;
  let rows: SubjectRowColumns[];
  let total: number;
  if (search) {
    // A substring of the numbers has no total: the page counts its matches (the one case that
    // grows with the trial), and past the last page a count alone gives the pager its total.
    const result = await page(sql`, count(*) over ()::int as total`).execute(db);
    rows = result.rows;
    total =
      result.rows[0]?.total ??
      (
        await sql<{ total: number }>`select count(*)::int as total from subject_facts f
          where ${sql.join(conditions, sql` and `)}`.execute(db)
      ).rows[0]?.total ??
      0;
  } else {
    const [result, counted] = await Promise.all([
      page(sql``).execute(db),
      sql<{ total: number }>`
        select coalesce(sum(${sql.ref(state.total)}), 0)::int as total from sdv_site_totals
        where study_id = ${studyId} and ${inSiteScope('site_id', context.scope)}`.execute(db),
    ]);
    rows = result.rows;
    total = counted.rows[0]?.total ?? 0;
  }
  return {
    subjects: rows.map((row) => presentSubjectRow(row, context.plan)),
    total,
    page: query.page,
    size: query.size,
    canVerify: canVerifyIn(principal, studyId, context.scope),
  };
}

function canVerifyIn(principal: Principal, studyId: number, scope: SiteScope): boolean {
  const verifying = siteScope(principal, 'sdv.mark', studyId);
  if (verifying === 'all') return true;
  if (scope === 'all') return verifying.size > 0;
  return [...scope].some((siteId) => verifying.has(siteId));
}

/** `GET …/sdv/subjects/:subjectPk`: the subject's visits and forms against the plan, and its next form. */
export async function sdvSubject(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  subjectPk: number,
): Promise<SdvSubjectResponse> {
  const subject = await findSubjectInScope(db, principal, studyId, subjectPk);
  const { reader, context } = await sdvContext(db, principal, studyId, subject.site_id);
  const definition = reader.definition;
  if (!definition) throw new AppError(404, 'not_found');
  const forms = await sql<{
    visit_key: string;
    form_key: string;
    planned: number;
    verified: number;
    changed: number;
  }>`
    with ${sdvCtes({ ...context, sites: context.scope, subjectId: subject.id })}
    select visit_key, form_key, planned, verified, changed from form_sdv`.execute(db);
  const subjectRow = await sql<SubjectRowColumns>`
    with ${subjectSdvCte(context)}
    select d.*, s.screening_number, facts.randomization_number, sites.code as site_code
    from subject_sdv d
    join subjects s on s.id = d.subject_id
    join sites on sites.id = d.site_id
    left join subject_facts facts on facts.subject_id = d.subject_id
    where d.subject_id = ${subject.id}`.execute(db);
  const row = subjectRow.rows[0];
  if (!row) throw new AppError(404, 'not_found');
  const byForm = new Map(forms.rows.map((form) => [`${form.visit_key}.${form.form_key}`, form]));
  const formLabels = new Map(definition.forms.map((form) => [form.key, form.label]));
  let nextForm: SdvFormRef | null = null;
  // The subject's unscheduled visits (issue 19) among the scheduled ones by date, as on the overview.
  const unscheduled = await listUnscheduledVisits(db, subject.id);
  const visitDates =
    unscheduled.length === 0
      ? {}
      : scheduledVisitDates(
          definition,
          (await loadSubjectData(db, subject.id)).entered,
          subject.consent_date,
        );
  const subjectVisits = orderVisitKeys(definition, visitDates, unscheduled)
    .map((visitKey) => resolveVisit(definition, visitKey))
    .filter((visit) => visit !== undefined);
  const visits = subjectVisits.map((visit) => {
    const total = {
      planned_items: 0,
      verified_items: 0,
      changed_items: 0,
      planned_forms: 0,
      complete_forms: 0,
    };
    const visitForms = visit.forms.map((formKey) => {
      const counted = byForm.get(`${visit.key}.${formKey}`);
      const planned = counted?.planned ?? 0;
      const verified = counted?.verified ?? 0;
      const columns = {
        planned_items: planned,
        verified_items: verified,
        changed_items: counted?.changed ?? 0,
        planned_forms: planned > 0 ? 1 : 0,
        complete_forms: planned > 0 && verified === planned ? 1 : 0,
      };
      for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += columns[key];
      if (nextForm === null && verified < planned) {
        nextForm = {
          subjectPk: subject.id,
          subjectId: subject.screening_number,
          visitKey: visit.key,
          formKey,
        };
      }
      return {
        formKey,
        label: formLabels.get(formKey) ?? { ko: formKey, en: formKey },
        state: formStateOf(planned, verified),
        counts: presentCounts(columns),
      };
    });
    return {
      visitKey: visit.key,
      label: visit.label,
      state: formStateOf(total.planned_forms, total.complete_forms),
      counts: presentCounts(total),
      forms: visitForms,
    };
  });
  return {
    subject: presentSubjectRow(row, context.plan),
    visits,
    nextForm,
    // As the marking commands decide (sdv-marking.ts): the monitor of the site, and no lock over the
    // subject, its site or the study (a form's own lock refuses that form only; a freeze none).
    canVerify:
      can(principal, 'sdv.mark', { studyId, siteId: subject.site_id }) &&
      refuseUnderHolds('sdv.mark', await holdsOver(db, subjectTarget(subject))) === null,
  };
}

/**
 * `GET …/sdv/next`: the monitor's path — the first subject (by site code, then screening number) with
 * a planned item left to verify, and that subject's first such form in definition order.
 */
export async function sdvNext(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: SdvNextQuery,
): Promise<SdvNextResponse> {
  const { context } = await sdvContext(db, principal, studyId, query.siteId);
  const first = await sql<{ subject_id: number }>`
    with ${subjectSdvCte(context)}
    select d.subject_id from subject_sdv d
    join subjects s on s.id = d.subject_id
    join sites on sites.id = d.site_id
    where d.complete_forms < d.planned_forms
    order by sites.code collate "C", s.screening_number collate "C", s.id
    limit 1`.execute(db);
  const subjectId = first.rows[0]?.subject_id;
  if (subjectId === undefined) return { next: null };
  return { next: (await sdvSubject(db, principal, studyId, subjectId)).nextForm };
}
