import {
  type DashboardResponse,
  type dashboardQuerySchema,
  type SubjectInfoResponse,
  todayInKorea,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { type SubjectFacts, subjectFactCodes } from '../subjects/subject-facts.ts';
import {
  loadReadableSubjects,
  narrowToSite,
  type ReaderScope,
  readerScope,
} from '../visit-alarms/reader-scope.ts';
import { countAlarms, visitAlarmsOf } from '../visit-alarms/visit-alarms.ts';
import {
  ageGroups,
  genderGroups,
  groupCounts,
  monthlyRegistrations,
  safetySummary,
} from './dashboard-figures.ts';

type QueryCounts = DashboardResponse['queries'];

/**
 * Open and answered queries by kind (system checks vs monitors' manual queries) at the sites in
 * scope. Queries of deleted subjects do not count: the subjects themselves are gone from every list.
 */
async function countQueries(db: Kysely<Database>, studyId: number, sites: SiteScope): Promise<QueryCounts> {
  const counts: QueryCounts = { system: { open: 0, answered: 0 }, manual: { open: 0, answered: 0 } };
  if (sites !== 'all' && sites.size === 0) return counts;
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

function alarmCountsOf(subjects: SubjectFacts[], reader: ReaderScope, today: string) {
  return countAlarms(reader.definition ? visitAlarmsOf(subjects, reader.definition, today) : []);
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
  const subjects = await loadReadableSubjects(db, reader, reader.scope, today);
  const study = await db
    .selectFrom('studies')
    .select(['id', 'code', 'title', 'content'])
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  return {
    study,
    today,
    subjects: groupCounts(subjects),
    queries: await countQueries(db, studyId, reader.scope),
    safety: safetySummary(subjects),
    targetStatus: {
      byGender: genderGroups(subjects, reader.definition ? subjectFactCodes(reader.definition).gender : []),
      byAge: ageGroups(subjects),
    },
    registrations: {
      siteId: query.site ?? null,
      months: monthlyRegistrations(
        subjects.filter((subject) => chartSites === 'all' || chartSites.has(subject.siteId)),
        today,
      ),
    },
    sites: reader.sites,
    visitAlarms: alarmCountsOf(subjects, reader, today),
  };
}

/** `GET /api/studies/:studyId/subject-info`: the header popup's counts over the reader's sites. */
export async function loadSubjectInfo(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<SubjectInfoResponse> {
  const reader = await readerScope(db, principal, studyId);
  const today = todayInKorea();
  const subjects = await loadReadableSubjects(db, reader, reader.scope, today);
  const queries = await countQueries(db, studyId, reader.scope);
  const ecrfPages = subjects.reduce((sum, subject) => sum + subject.savedFormCount, 0);
  return {
    openQueries: queries.system.open + queries.manual.open,
    answeredQueries: queries.system.answered + queries.manual.answered,
    seriousAdverseEvents: safetySummary(subjects).seriousAdverseEvents,
    ecrfPages,
    // SDV is not recorded anywhere yet, so no page is source-verified: every saved page is still
    // to be verified. Once SDV exists, verified pages are subtracted here.
    pagesNotSdvComplete: ecrfPages,
    visitAlarms: alarmCountsOf(subjects, reader, today),
  };
}
