import {
  todayInKorea,
  type VisitAlarm,
  type VisitAlarmCounts,
  type VisitAlarmListResponse,
  type VisitAlarmState,
  type visitAlarmQuerySchema,
} from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, SubjectStatus } from '../db/schema.ts';
import {
  DEFAULT_DUE_SOON_DAYS,
  dueSoonDaysOf,
  emptyAlarmCounts,
  STATE_ORDER,
} from './classify-visit-alarms.ts';
import { narrowToSite, readerScope } from './reader-scope.ts';

/**
 * The subject alarms in SQL, over the read model's visit windows (`subject_visit_windows`): the
 * same rules as `classifyVisit` (which the tests hold this query to), evaluated where the rows
 * are, so counting and paging never load the trial's visits into memory.
 *
 *   out of window  a visit done before its window opened or after it closed (any subject status);
 *   overdue        not done, subject in follow-up, the window closed before today;
 *   due            not done, subject in follow-up, today inside the window;
 *   due soon       not done, subject in follow-up, the window opens within `dueSoonDays`.
 */

export interface AlarmScope {
  studyId: number;
  sites: SiteScope;
  today: string;
  dueSoonDays: number;
}

function siteFilter(sites: SiteScope): RawBuilder<unknown> {
  return sites === 'all' ? sql`` : sql`and w.site_id in (${sql.join([...sites])})`;
}

/**
 * Every window row that raises an alarm, with its state, days and timing. Two parts, each matching
 * one partial index: visits done outside their window, and visits not done of subjects in follow-up
 * whose window opens by today + `dueSoonDays` — so only rows that raise an alarm are read.
 */
function alarmRows(scope: AlarmScope): RawBuilder<unknown> {
  const today = sql`${scope.today}::date`;
  const classified = sql`
      case
        when w.actual_date < w.earliest_date or w.actual_date > w.latest_date then 'outOfWindow'
        when w.latest_date < ${today} then 'overdue'
        when w.earliest_date <= ${today} then 'due'
        else 'dueSoon'
      end as state,
      case
        when w.actual_date < w.earliest_date then w.earliest_date - w.actual_date
        when w.actual_date > w.latest_date then w.actual_date - w.latest_date
        when w.latest_date < ${today} then ${today} - w.latest_date
        when w.earliest_date <= ${today} then w.latest_date - ${today}
        else w.earliest_date - ${today}
      end as days,
      case
        when w.actual_date < w.earliest_date then 'early'
        when w.actual_date > w.latest_date then 'late'
      end as timing`;
  return sql`
    select w.*, ${classified}
    from subject_visit_windows w
    where w.study_id = ${scope.studyId} ${siteFilter(scope.sites)}
      and (w.actual_date < w.earliest_date or w.actual_date > w.latest_date)
    union all
    select w.*, ${classified}
    from subject_visit_windows w
    where w.study_id = ${scope.studyId} ${siteFilter(scope.sites)}
      and w.actual_date is null and w.subject_status = 'ongoing'
      and w.earliest_date <= ${today} + ${scope.dueSoonDays}::int`;
}

/** Alarms per state over the scope. */
export async function countVisitAlarms(db: Kysely<Database>, scope: AlarmScope): Promise<VisitAlarmCounts> {
  const counts = emptyAlarmCounts();
  if (scope.sites !== 'all' && scope.sites.size === 0) return counts;
  const result = await sql<{ state: VisitAlarmState; count: number }>`
    select state, count(*)::int as count from (${alarmRows(scope)}) alarms group by state`.execute(db);
  for (const row of result.rows) counts[row.state] = Number(row.count);
  return counts;
}

interface AlarmRow {
  subject_id: number;
  visit_key: string;
  expected_date: string;
  earliest_date: string;
  latest_date: string;
  actual_date: string | null;
  state: VisitAlarmState;
  days: number;
  timing: 'early' | 'late' | null;
  screening_number: string;
  randomization_number: string | null;
  site_id: number;
  site_code: string;
  site_name: string;
  status: SubjectStatus;
}

/**
 * One page of alarms in list order: by state (overdue, due, due soon, out of window), the most
 * urgent first within a state (overdue longest, due and due soon nearest, the latest deviation),
 * then by screening number and visit order.
 */
async function alarmPage(
  db: Kysely<Database>,
  scope: AlarmScope,
  state: VisitAlarmState | undefined,
  limit: number,
  offset: number,
): Promise<AlarmRow[]> {
  const stateRank = sql.join(STATE_ORDER.map((entry) => sql.lit(entry)));
  // The list order, over alarm rows named `alias`: the window rows carry every sort key, so the page
  // is chosen from them alone and only its rows meet their subject and site.
  const listOrder = (alias: string) => {
    const a = sql.table(alias);
    return sql`array_position(array[${stateRank}]::text[], ${a}.state),
      case ${a}.state when 'overdue' then -${a}.days when 'outOfWindow' then 0 else ${a}.days end,
      case when ${a}.state = 'outOfWindow' then ${a}.actual_date end desc nulls last,
      ${a}.screening_number collate "C", ${a}.visit_order`;
  };
  const result = await sql<AlarmRow>`
    select p.subject_id, p.visit_key, p.expected_date, p.earliest_date, p.latest_date, p.actual_date,
      p.state, p.days, p.timing, p.screening_number, f.randomization_number, f.site_id,
      s.code as site_code, s.name as site_name, f.status
    from (
      select a.* from (${alarmRows(scope)}) a
      ${state ? sql`where a.state = ${state}` : sql``}
      order by ${listOrder('a')}
      limit ${limit} offset ${offset}
    ) p
    join subject_facts f on f.subject_id = p.subject_id
    join sites s on s.id = p.site_id
    order by ${listOrder('p')}`.execute(db);
  return result.rows;
}

function presentAlarm(row: AlarmRow, definition: StudyDefinition): VisitAlarm {
  const label = definition.visits.find((visit) => visit.key === row.visit_key)?.label ?? {
    ko: row.visit_key,
    en: row.visit_key,
  };
  return {
    subject: {
      id: row.subject_id,
      subjectId: row.screening_number,
      registrationNumber: row.randomization_number,
      siteId: row.site_id,
      siteCode: row.site_code,
      siteName: row.site_name,
      status: row.status,
    },
    visitKey: row.visit_key,
    visitLabel: { ko: label.ko, en: label.en },
    expectedDate: row.expected_date,
    earliestDate: row.earliest_date,
    latestDate: row.latest_date,
    actualDate: row.actual_date,
    state: row.state,
    days: Number(row.days),
    timing: row.timing,
  };
}

/** The alarm scope of a reader's sites as of today (Korean day). */
export function alarmScopeOf(
  studyId: number,
  sites: SiteScope,
  definition: StudyDefinition | null,
): AlarmScope {
  return {
    studyId,
    sites,
    today: todayInKorea(),
    dueSoonDays: definition ? dueSoonDaysOf(definition) : DEFAULT_DUE_SOON_DAYS,
  };
}

/** `GET /api/studies/:studyId/visit-alarms`: one page of alarms in the reader's sites, and the counts. */
export async function listVisitAlarms(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: z.output<typeof visitAlarmQuerySchema>,
): Promise<VisitAlarmListResponse> {
  const reader = await readerScope(db, principal, studyId);
  const scope = alarmScopeOf(studyId, narrowToSite(reader, query.site), reader.definition);
  const empty = !reader.definition || (scope.sites !== 'all' && scope.sites.size === 0);
  const counts = empty ? emptyAlarmCounts() : await countVisitAlarms(db, scope);
  const total = query.state
    ? counts[query.state]
    : Object.values(counts).reduce((sum, count) => sum + count, 0);
  const start = (query.page - 1) * query.size;
  const rows = empty || !reader.definition ? [] : await alarmPage(db, scope, query.state, query.size, start);
  const definition = reader.definition;
  return {
    alarms: definition ? rows.map((row) => presentAlarm(row, definition)) : [],
    counts,
    total,
    page: query.page,
    size: query.size,
    today: scope.today,
    dueSoonDays: scope.dueSoonDays,
    sites: reader.sites,
  };
}
