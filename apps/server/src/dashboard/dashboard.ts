import {
  type DashboardResponse,
  type dashboardQuerySchema,
  type SubjectInfoResponse,
  todayInKorea,
} from '@cdms/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, SubjectStatus } from '../db/schema.ts';
import { countPagesNotSdvComplete } from '../sdv/pages-not-sdv-complete.ts';
import { subjectFactCodes } from '../subjects/subject-facts.ts';
import { narrowToSite, readerScope } from '../visit-alarms/reader-scope.ts';
import { alarmScopeOf, countVisitAlarms } from '../visit-alarms/visit-alarms.ts';
import {
  AGE_BANDS,
  ageGroups,
  genderGroups,
  groupCounts,
  monthlyRegistrations,
  NOT_ENTERED,
  type SubjectGroup,
  safetySummary,
} from './dashboard-figures.ts';

/**
 * The dashboard and the subject-info popup: every figure is counted in SQL over the read model
 * (`subject_facts`, which carries each subject's unresolved queries by kind; deleted subjects have
 * no row, so their queries do not count), limited to the reader's sites. What comes back to the
 * server is a few dozen group rows, whatever the trial's size.
 */

type QueryCounts = DashboardResponse['queries'];

function noSites(sites: SiteScope): boolean {
  return sites !== 'all' && sites.size === 0;
}

function siteFilter(column: RawBuilder<unknown>, sites: SiteScope): RawBuilder<unknown> {
  return sites === 'all' ? sql`` : sql`and ${column} in (${sql.join([...sites])})`;
}

/** The SQL form of `ageBandOf`: the same bands, from the one `AGE_BANDS` constant. */
function ageBandSql(): RawBuilder<string> {
  const branches = AGE_BANDS.map((band) => {
    const conditions = [
      ...(band.minAge === null ? [] : [sql`age >= ${band.minAge}`]),
      ...(band.maxAge === null ? [] : [sql`age <= ${band.maxAge}`]),
    ];
    return sql`when ${sql.join(conditions, sql` and `)} then ${band.key}`;
  });
  return sql<string>`case when age is null then ${NOT_ENTERED} ${sql.join(branches, sql` `)} else ${NOT_ENTERED} end`;
}

interface SubjectFigures {
  groups: SubjectGroup[];
  /** Consents per month (YYYY-MM) at the chart's sites, months without any left out. */
  months: { month: string; count: number }[];
  queries: QueryCounts;
}

/**
 * One pass over the subjects in scope: groups by everything the figures tell apart (status,
 * randomized, gender, age band) with event and unresolved-query totals, and, as a second grouping
 * set of the same scan, consents per month at the chart's sites.
 */
async function subjectFigures(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
  chartSites: SiteScope,
): Promise<SubjectFigures> {
  const queries: QueryCounts = { system: { open: 0, answered: 0 }, manual: { open: 0, answered: 0 } };
  if (noSites(sites)) return { groups: [], months: [], queries };
  const inChart = chartSites === 'all' ? sql`true` : sql`site_id in (${sql.join([...chartSites])})`;
  const result = await sql<{
    is_month: boolean;
    month: string | null;
    status: SubjectStatus;
    randomized: boolean;
    gender: string | null;
    age_band: string;
    subjects: number;
    chart_subjects: number;
    adverse_events: number;
    serious_adverse_events: number;
    with_adverse_events: number;
    with_serious_adverse_events: number;
    system_open: number;
    system_answered: number;
    manual_open: number;
    manual_answered: number;
  }>`
    select grouping(month) = 0 as is_month, month, status, randomized, gender, age_band,
      count(*)::int as subjects,
      (count(*) filter (where in_chart))::int as chart_subjects,
      sum(adverse_event_count)::int as adverse_events,
      sum(serious_adverse_event_count)::int as serious_adverse_events,
      (count(*) filter (where adverse_event_count > 0))::int as with_adverse_events,
      (count(*) filter (where serious_adverse_event_count > 0))::int as with_serious_adverse_events,
      sum(open_query_count - manual_open_query_count)::int as system_open,
      sum(answered_query_count - manual_answered_query_count)::int as system_answered,
      sum(manual_open_query_count)::int as manual_open,
      sum(manual_answered_query_count)::int as manual_answered
    from (
      select f.*, randomization_number is not null as randomized, ${ageBandSql()} as age_band,
        to_char(consent_date, 'YYYY-MM') as month, ${inChart} as in_chart
      from subject_facts f
      where study_id = ${studyId} ${siteFilter(sql`site_id`, sites)}
    ) facts
    group by grouping sets ((status, randomized, gender, age_band), (month))`.execute(db);
  const groups: SubjectGroup[] = [];
  const months: { month: string; count: number }[] = [];
  for (const row of result.rows) {
    if (row.is_month) {
      if (row.month !== null && Number(row.chart_subjects) > 0)
        months.push({ month: row.month, count: Number(row.chart_subjects) });
      continue;
    }
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
  return { groups, months, queries };
}

/** Saved eCRF pages, serious adverse events and unresolved queries at the sites (the popup), in one pass. */
async function pagesAndSeriousEvents(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
): Promise<{ pages: number; seriousAdverseEvents: number; openQueries: number; answeredQueries: number }> {
  if (noSites(sites)) return { pages: 0, seriousAdverseEvents: 0, openQueries: 0, answeredQueries: 0 };
  const result = await sql<{
    pages: number | null;
    serious: number | null;
    open: number | null;
    answered: number | null;
  }>`
    select sum(saved_form_count)::int as pages, sum(serious_adverse_event_count)::int as serious,
      sum(open_query_count)::int as open, sum(answered_query_count)::int as answered
    from subject_facts
    where study_id = ${studyId} ${siteFilter(sql`site_id`, sites)}`.execute(db);
  const row = result.rows[0];
  return {
    pages: Number(row?.pages ?? 0),
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
  const [counted, visitAlarms, pagesNotSdvComplete] = await Promise.all([
    pagesAndSeriousEvents(db, studyId, reader.scope),
    countVisitAlarms(db, alarmScopeOf(studyId, reader.scope, reader.definition)),
    countPagesNotSdvComplete(db, studyId, reader.scope, reader.definition),
  ]);
  return {
    openQueries: counted.openQueries,
    answeredQueries: counted.answeredQueries,
    seriousAdverseEvents: counted.seriousAdverseEvents,
    ecrfPages: counted.pages,
    pagesNotSdvComplete,
    visitAlarms,
  };
}
