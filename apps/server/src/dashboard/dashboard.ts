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
 * (`subject_facts`) and the queries table, limited to the reader's sites. What comes back to the
 * server is a few dozen group rows, whatever the trial's size.
 */

type QueryCounts = DashboardResponse['queries'];

function noSites(sites: SiteScope): boolean {
  return sites !== 'all' && sites.size === 0;
}

function siteFilter(column: RawBuilder<unknown>, sites: SiteScope): RawBuilder<unknown> {
  return sites === 'all' ? sql`` : sql`and ${column} in (${sql.join([...sites])})`;
}

/**
 * Open and answered queries by kind (system checks vs monitors' manual queries) at the sites in
 * scope. Queries of deleted subjects do not count: the subjects themselves are gone from every list.
 */
async function countQueries(db: Kysely<Database>, studyId: number, sites: SiteScope): Promise<QueryCounts> {
  const counts: QueryCounts = { system: { open: 0, answered: 0 }, manual: { open: 0, answered: 0 } };
  if (noSites(sites)) return counts;
  let query = db
    .selectFrom('queries')
    .innerJoin('subjects', 'subjects.id', 'queries.subject_id')
    .select(['queries.kind', 'queries.status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('queries.study_id', '=', studyId)
    .where('subjects.deleted_at', 'is', null)
    .where('queries.status', 'in', ['open', 'answered'])
    .groupBy(['queries.kind', 'queries.status']);
  if (sites !== 'all') query = query.where('queries.site_id', 'in', [...sites]);
  for (const row of await query.execute()) {
    if (row.status === 'open' || row.status === 'answered') counts[row.kind][row.status] = Number(row.count);
  }
  return counts;
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

/** Subjects in scope grouped by everything the figures tell apart, with event totals. */
async function subjectGroups(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
): Promise<SubjectGroup[]> {
  if (noSites(sites)) return [];
  const result = await sql<{
    status: SubjectStatus;
    randomized: boolean;
    gender: string | null;
    age_band: string;
    subjects: number;
    adverse_events: number;
    serious_adverse_events: number;
    with_adverse_events: number;
    with_serious_adverse_events: number;
  }>`
    select status, randomization_number is not null as randomized, gender, ${ageBandSql()} as age_band,
      count(*)::int as subjects,
      sum(adverse_event_count)::int as adverse_events,
      sum(serious_adverse_event_count)::int as serious_adverse_events,
      (count(*) filter (where adverse_event_count > 0))::int as with_adverse_events,
      (count(*) filter (where serious_adverse_event_count > 0))::int as with_serious_adverse_events
    from subject_facts
    where study_id = ${studyId} ${siteFilter(sql`site_id`, sites)}
    group by 1, 2, 3, 4`.execute(db);
  return result.rows.map((row) => ({
    status: row.status,
    randomized: row.randomized,
    gender: row.gender,
    ageBand: row.age_band,
    subjects: Number(row.subjects),
    adverseEvents: Number(row.adverse_events),
    seriousAdverseEvents: Number(row.serious_adverse_events),
    subjectsWithAdverseEvents: Number(row.with_adverse_events),
    subjectsWithSeriousAdverseEvents: Number(row.with_serious_adverse_events),
  }));
}

/** Consents per month (YYYY-MM) at the sites, months without any left out. */
async function consentMonths(db: Kysely<Database>, studyId: number, sites: SiteScope) {
  if (noSites(sites)) return [];
  const result = await sql<{ month: string; count: number }>`
    select to_char(consent_date, 'YYYY-MM') as month, count(*)::int as count
    from subject_facts
    where study_id = ${studyId} ${siteFilter(sql`site_id`, sites)}
    group by 1`.execute(db);
  return result.rows.map((row) => ({ month: row.month, count: Number(row.count) }));
}

/** Saved eCRF pages at the sites (the subject-info popup). */
async function savedPages(db: Kysely<Database>, studyId: number, sites: SiteScope): Promise<number> {
  if (noSites(sites)) return 0;
  const result = await sql<{ pages: number | null }>`
    select sum(saved_form_count)::int as pages from subject_facts
    where study_id = ${studyId} ${siteFilter(sql`site_id`, sites)}`.execute(db);
  return Number(result.rows[0]?.pages ?? 0);
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
  const [study, groups, months, queries, visitAlarms] = await Promise.all([
    db
      .selectFrom('studies')
      .select(['id', 'code', 'title', 'content'])
      .where('id', '=', studyId)
      .executeTakeFirstOrThrow(),
    subjectGroups(db, studyId, reader.scope),
    consentMonths(db, studyId, chartSites),
    countQueries(db, studyId, reader.scope),
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
  const [groups, queries, ecrfPages, visitAlarms] = await Promise.all([
    subjectGroups(db, studyId, reader.scope),
    countQueries(db, studyId, reader.scope),
    savedPages(db, studyId, reader.scope),
    countVisitAlarms(db, alarmScopeOf(studyId, reader.scope, reader.definition)),
  ]);
  return {
    openQueries: queries.system.open + queries.manual.open,
    answeredQueries: queries.system.answered + queries.manual.answered,
    seriousAdverseEvents: safetySummary(groups).seriousAdverseEvents,
    ecrfPages,
    // SDV is not recorded anywhere yet, so no page is source-verified: every saved page is still
    // to be verified. Once SDV exists, verified pages are subtracted here.
    pagesNotSdvComplete: ecrfPages,
    visitAlarms,
  };
}
