import {
  type DashboardResponse,
  type dashboardQuerySchema,
  type SubjectInfoResponse,
  todayInKorea,
} from '@cdms/contract';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import type { SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inSiteScope } from '../auth/site-scope-sql.ts';
import type { Database, SubjectFactTotalsTable } from '../db/schema.ts';
import {
  ageGroups,
  genderGroups,
  groupCounts,
  monthlyRegistrations,
  type SubjectGroup,
  safetySummary,
} from '../read-model/dashboard-figures.ts';
import { subjectFactCodes } from '../read-model/subject-facts.ts';
import { narrowToSite, readerScope } from '../visit-alarms/reader-scope.ts';
import { alarmScopeOf, countVisitAlarms } from '../visit-alarms/visit-alarms.ts';

/**
 * The dashboard and the subject-info popup: every figure is added up in SQL from the read model's
 * totals (`subject_fact_totals`: the facts of `subject_facts` summed per site and group of
 * subjects, unresolved queries by kind included; deleted subjects have no facts, so their queries
 * do not count), limited to the reader's sites. What is read is a few rows per site and group and
 * what comes back to the server a few dozen, whatever the trial's size.
 */

type QueryCounts = DashboardResponse['queries'];

function noSites(sites: SiteScope): boolean {
  return sites !== 'all' && sites.size === 0;
}

interface SubjectFigures {
  groups: SubjectGroup[];
  /** Consents per month (YYYY-MM) at the chart's sites, months without any left out. */
  months: { month: string; count: number }[];
  queries: QueryCounts;
}

/**
 * The read model's totals in scope (`subject_fact_totals`, `consent_month_totals`): a group's total
 * is the sum of its delta rows, so each figure adds up a few rows per site and group, whatever the
 * trial's size. Groups by everything the figures tell apart (status, randomized, gender, age band)
 * with event and unresolved-query totals; consents per month at the chart's sites.
 */
async function subjectFigures(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
  chartSites: SiteScope,
): Promise<SubjectFigures> {
  const queries: QueryCounts = { system: { open: 0, answered: 0 }, manual: { open: 0, answered: 0 } };
  if (noSites(sites)) return { groups: [], months: [], queries };
  const [grouped, monthly] = await Promise.all([
    // The group's own columns and its sums, under the totals table's names where they are the same.
    sql<
      Pick<
        SubjectFactTotalsTable,
        | 'status'
        | 'randomized'
        | 'gender'
        | 'age_band'
        | 'subjects'
        | 'adverse_events'
        | 'serious_adverse_events'
      > & {
        with_adverse_events: number;
        with_serious_adverse_events: number;
        system_open: number;
        system_answered: number;
        manual_open: number;
        manual_answered: number;
      }
    >`
      select status, randomized, gender, age_band,
        sum(subjects)::int as subjects,
        sum(adverse_events)::int as adverse_events,
        sum(serious_adverse_events)::int as serious_adverse_events,
        sum(subjects_with_adverse_events)::int as with_adverse_events,
        sum(subjects_with_serious_adverse_events)::int as with_serious_adverse_events,
        sum(open_queries - manual_open_queries)::int as system_open,
        sum(answered_queries - manual_answered_queries)::int as system_answered,
        sum(manual_open_queries)::int as manual_open,
        sum(manual_answered_queries)::int as manual_answered
      from subject_fact_totals
      where study_id = ${studyId} and ${inSiteScope('site_id', sites)}
      group by status, randomized, gender, age_band
      having sum(subjects) > 0`.execute(db),
    noSites(chartSites)
      ? { rows: [] }
      : sql<{ month: string; subjects: number }>`
          select consent_month as month, sum(subjects)::int as subjects
          from consent_month_totals
          where study_id = ${studyId} and ${inSiteScope('site_id', chartSites)}
          group by consent_month
          having sum(subjects) > 0`.execute(db),
  ]);
  const groups: SubjectGroup[] = [];
  for (const row of grouped.rows) {
    groups.push({
      status: row.status,
      randomized: row.randomized,
      gender: row.gender,
      ageBand: row.age_band,
      subjects: Number(row.subjects),
      adverseEvents: Number(row.adverse_events),
      seriousAdverseEvents: Number(row.serious_adverse_events),
      subjectsWithAdverseEvents: Number(row.with_adverse_events),
      subjectsWithSeriousAdverseEvents: Number(row.with_serious_adverse_events),
    });
    queries.system.open += Number(row.system_open);
    queries.system.answered += Number(row.system_answered);
    queries.manual.open += Number(row.manual_open);
    queries.manual.answered += Number(row.manual_answered);
  }
  const months = monthly.rows.map((row) => ({ month: row.month, count: Number(row.subjects) }));
  return { groups, months, queries };
}

interface PopupCounts {
  pages: number;
  /** Saved pages with an entered item in the SDV plan not verified (the read model's per-subject counts). */
  pagesNotSdvComplete: number;
  seriousAdverseEvents: number;
  openQueries: number;
  answeredQueries: number;
}

/** Saved eCRF pages, SDV, serious adverse events and unresolved queries at the sites (the popup), from the totals. */
async function popupCounts(db: Kysely<Database>, studyId: number, sites: SiteScope): Promise<PopupCounts> {
  if (noSites(sites))
    return { pages: 0, pagesNotSdvComplete: 0, seriousAdverseEvents: 0, openQueries: 0, answeredQueries: 0 };
  const result = await sql<{
    pages: number | null;
    not_sdv_complete: number | null;
    serious: number | null;
    open: number | null;
    answered: number | null;
  }>`
    select sum(saved_forms)::int as pages,
      sum(sdv_planned_forms - sdv_complete_forms)::int as not_sdv_complete,
      sum(serious_adverse_events)::int as serious,
      sum(open_queries)::int as open, sum(answered_queries)::int as answered
    from subject_fact_totals
    where study_id = ${studyId} and ${inSiteScope('site_id', sites)}`.execute(db);
  const row = result.rows[0];
  return {
    pages: Number(row?.pages ?? 0),
    pagesNotSdvComplete: Number(row?.not_sdv_complete ?? 0),
    seriousAdverseEvents: Number(row?.serious ?? 0),
    openQueries: Number(row?.open ?? 0),
    answeredQueries: Number(row?.answered ?? 0),
  };
}

/** `GET /api/studies/:studyId/dashboard`: every figure over the reader's sites (spec §2 "Dashboard"). */
export async function loadDashboard(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: z.output<typeof dashboardQuerySchema>,
): Promise<DashboardResponse> {
  const reader = await readerScope(db, principal, studyId);
  // The institution dropdown narrows the monthly chart only; the other figures cover every site in scope.
  const chartSites = narrowToSite(reader, query.site);
  const today = todayInKorea();
  const [study, { groups, months, queries }, visitAlarms] = await Promise.all([
    db
      .selectFrom('studies')
      .select(['id', 'code', 'title', 'content'])
      .where('id', '=', studyId)
      .executeTakeFirstOrThrow(),
    subjectFigures(db, studyId, reader.scope, chartSites),
    countVisitAlarms(db, alarmScopeOf(studyId, reader.scope, reader.definition)),
  ]);
  return {
    study,
    today,
    subjects: groupCounts(groups),
    queries,
    safety: safetySummary(groups),
    targetStatus: {
      byGender: genderGroups(groups, reader.definition ? subjectFactCodes(reader.definition).gender : []),
      byAge: ageGroups(groups),
    },
    registrations: { siteId: query.site ?? null, months: monthlyRegistrations(months, today) },
    sites: reader.sites,
    visitAlarms,
  };
}

/** `GET /api/studies/:studyId/subject-info`: the header popup's counts over the reader's sites. */
export async function loadSubjectInfo(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<SubjectInfoResponse> {
  const reader = await readerScope(db, principal, studyId);
  const [counted, visitAlarms] = await Promise.all([
    popupCounts(db, studyId, reader.scope),
    countVisitAlarms(db, alarmScopeOf(studyId, reader.scope, reader.definition)),
  ]);
  return {
    openQueries: counted.openQueries,
    answeredQueries: counted.answeredQueries,
    seriousAdverseEvents: counted.seriousAdverseEvents,
    ecrfPages: counted.pages,
    pagesNotSdvComplete: counted.pagesNotSdvComplete,
    visitAlarms,
  };
}
