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
import { inSiteScope } from '../auth/site-scope-sql.ts';
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
 * same rules as `classifyVisit` (which the tests hold these queries to).
 *
 *   out of window  a visit done before its window opened or after it closed (any subject status);
 *   overdue        not done, subject in follow-up, the window closed before today;
 *   due            not done, subject in follow-up, today inside the window;
 *   due soon       not done, subject in follow-up, the window opens within `dueSoonDays`.
 *
 * Neither counting nor paging reads every alarm: the counts add up `visit_alarm_totals` (a few rows
 * per site and window dates, kept by a trigger on the windows), and a page reads, state by state,
 * only its own rows from an index in list order.
 */

export interface AlarmScope {
  studyId: number;
  sites: SiteScope;
  today: string;
  dueSoonDays: number;
}

/** Alarms per state over the scope, from the totals: the state of a pending window is read off its dates. */
export async function countVisitAlarms(db: Kysely<Database>, scope: AlarmScope): Promise<VisitAlarmCounts> {
  if (scope.sites !== 'all' && scope.sites.size === 0) return emptyAlarmCounts();
  const today = sql`${scope.today}::date`;
  const pending = (condition: RawBuilder<unknown>) =>
    sql<number>`coalesce(sum(t.windows) filter (where t.kind = 'pending' and ${condition}), 0)::int`;
  const result = await sql<VisitAlarmCounts>`
    select
      ${pending(sql`t.latest_date < ${today}`)} as "overdue",
      ${pending(sql`t.earliest_date <= ${today} and t.latest_date >= ${today}`)} as "due",
      ${pending(sql`t.earliest_date > ${today}`)} as "dueSoon",
      coalesce(sum(t.windows) filter (where t.kind = 'outOfWindow'), 0)::int as "outOfWindow"
    from visit_alarm_totals t
    where t.study_id = ${scope.studyId} and ${inSiteScope('t.site_id', scope.sites)}
      and (t.kind = 'outOfWindow' or t.earliest_date <= ${today} + ${scope.dueSoonDays}::int)`.execute(db);
  const row = result.rows[0];
  return {
    overdue: Number(row?.overdue ?? 0),
    due: Number(row?.due ?? 0),
    dueSoon: Number(row?.dueSoon ?? 0),
    outOfWindow: Number(row?.outOfWindow ?? 0),
  };
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

/** A run of one state's alarms on a page: `limit` rows from `offset` within the state. */
export interface StateSlice {
  state: VisitAlarmState;
  offset: number;
  limit: number;
}

/**
 * Which rows of which states a page holds. The list runs state by state in `STATE_ORDER`, so with
 * the counts known, a page's rows are a run of one state or the end of one and the start of the next.
 */
export function pageSlices(
  counts: VisitAlarmCounts,
  state: VisitAlarmState | undefined,
  offset: number,
  limit: number,
): StateSlice[] {
  const slices: StateSlice[] = [];
  let skip = offset;
  let left = limit;
  for (const current of state ? [state] : STATE_ORDER) {
    if (left <= 0) break;
    const count = counts[current];
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const take = Math.min(left, count - skip);
    slices.push({ state: current, offset: skip, limit: take });
    skip = 0;
    left -= take;
  }
  return slices;
}

/**
 * One state's alarms in list order, the most urgent first (overdue longest, due and due soon
 * nearest, the latest deviation), then by screening number and visit order. Each state's rows and
 * order match a partial index (migration 2026-11-30T1200), so PostgreSQL reads the slice's rows
 * in order and stops; only those rows meet their subject and site. The partial indexes' conditions
 * are written as literals: a bound parameter would keep the planner from proving the index applies.
 */
function stateRows(scope: AlarmScope, slice: StateSlice): RawBuilder<AlarmRow> {
  const today = sql`${scope.today}::date`;
  const sites = inSiteScope('w.site_id', scope.sites);
  const pending = sql`w.actual_date is null and w.subject_status = 'ongoing'`;
  // Per state: which windows, the column the urgency follows, and what `days` counts.
  const parts: Record<
    VisitAlarmState,
    { where: RawBuilder<unknown>; order: RawBuilder<unknown>; days: RawBuilder<unknown> }
  > = {
    overdue: {
      where: sql`${pending} and w.latest_date < ${today}`,
      order: sql`latest_date`,
      days: sql`${today} - w.latest_date`,
    },
    due: {
      where: sql`${pending} and w.latest_date >= ${today} and w.earliest_date <= ${today}`,
      order: sql`latest_date`,
      days: sql`w.latest_date - ${today}`,
    },
    dueSoon: {
      where: sql`${pending} and w.earliest_date > ${today} and w.earliest_date <= ${today} + ${scope.dueSoonDays}::int`,
      order: sql`earliest_date`,
      days: sql`w.earliest_date - ${today}`,
    },
    outOfWindow: {
      where: sql`(w.actual_date < w.earliest_date or w.actual_date > w.latest_date)`,
      order: sql`actual_date desc`,
      days: sql`case when w.actual_date < w.earliest_date then w.earliest_date - w.actual_date
        else w.actual_date - w.latest_date end`,
    },
  };
  const part = parts[slice.state];
  // The list order over rows named `alias` (the windows, then the page's rows after the joins).
  const listOrder = (alias: string) => {
    const a = sql.table(alias);
    return sql`${a}.${part.order}, ${a}.screening_number collate "C", ${a}.visit_order`;
  };
  const timing =
    slice.state === 'outOfWindow'
      ? sql`case when w.actual_date < w.earliest_date then 'early' else 'late' end`
      : sql`null::text`;
  return sql<AlarmRow>`
    select p.subject_id, p.visit_key, p.expected_date, p.earliest_date, p.latest_date, p.actual_date,
      ${slice.state}::text as state, p.days, p.timing, p.screening_number, f.randomization_number,
      f.site_id, s.code as site_code, s.name as site_name, f.status
    from (
      select w.*, ${part.days} as days, ${timing} as timing
      from subject_visit_windows w
      where w.study_id = ${scope.studyId} and ${sites} and ${part.where}
      order by ${listOrder('w')}
      limit ${slice.limit} offset ${slice.offset}
    ) p
    join subject_facts f on f.subject_id = p.subject_id
    join sites s on s.id = p.site_id
    order by ${listOrder('p')}`;
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
  const slices = empty ? [] : pageSlices(counts, query.state, start, query.size);
  // A page holds one state's run or the seam of two: one query per run, in list order.
  const runs = await Promise.all(slices.map((slice) => stateRows(scope, slice).execute(db)));
  const rows = runs.flatMap((run) => run.rows);
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
