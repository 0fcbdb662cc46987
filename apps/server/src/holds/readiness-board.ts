import {
  HOLD_LEVEL_WIDTH,
  type HoldMark,
  holdLevels,
  LOCK_WEIGHT,
  type ReadinessSiteRow,
  type ReadinessSitesResponse,
  type ReadinessSubjectRow,
  type ReadinessSubjectsResponse,
  type readinessSubjectsQuerySchema,
  todayInKorea,
} from '@cdms/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { inSiteScope } from '../auth/site-scope-sql.ts';
import type { Database } from '../db/schema.ts';
import { presentListedSubject } from '../subjects/listed-subject.ts';
import { narrowToSite, type ReaderScope, readerScope } from '../visit-alarms/reader-scope.ts';
import { holdAbilitiesAt } from './list-holds.ts';

/**
 * The database-lock readiness board (`/freezing/{id}`): per subject and per site, what still stands
 * between the data and a lock — open and answered queries, saved forms missing required items (the
 * overview's dash), forms whose planned SDV is incomplete, visits overdue (as the subject alarms count
 * them), and the casebook's signature. A subject is ready when every count is zero and its casebook is
 * signed. Counted in SQL over the reader's sites; only a page of subjects leaves the database.
 */

export type ReadinessSubjectsQuery = z.output<typeof readinessSubjectsQuerySchema>;

/**
 * A hold's strength as one number in SQL: `holdStrength` of lock-rules.ts (a lock outranks a freeze,
 * then the wider level), built from the same constants. 0 = no hold.
 */
const holdRankSql = sql`(case when h.kind = 'locked' then ${sql.lit(LOCK_WEIGHT)} else 0 end
  + case h.level ${sql.join(
    holdLevels.map((level) => sql`when ${sql.lit(level)} then ${sql.lit(HOLD_LEVEL_WIDTH[level])}`),
    sql` `,
  )} end)`;

/** The hold whose strength is `rank` (`holdStrength` read backwards), or null for 0. */
function holdMarkOf(rank: number | null): HoldMark {
  if (rank === null || rank === 0) return null;
  const kind = rank > LOCK_WEIGHT ? 'locked' : 'frozen';
  const width = kind === 'locked' ? rank - LOCK_WEIGHT : rank;
  const level = holdLevels.find((candidate) => HOLD_LEVEL_WIDTH[candidate] === width);
  return level ? { kind, level } : null;
}

interface ReadinessRow {
  subject_id: number;
  site_id: number;
  screening_number: string;
  randomization_number: string | null;
  site_code: string;
  open_queries: number;
  answered_queries: number;
  forms_missing_required: number;
  forms_sdv_incomplete: number;
  overdue_visits: number;
  signature: 'none' | 'signed' | 'invalidated';
  hold_rank: number;
  ready: boolean;
}

/**
 * Nothing stored holds the facts row `f` back from a lock: signed, no open or answered query, no
 * form missing required items, SDV complete. Written as the predicate of
 * `subject_facts_study_lock_clear_idx` (migration 2026-12-06T1920), so the "ready" page can read
 * that index; the same test as the trigger behind `readiness_totals`.
 */
const lockClearSql = sql<boolean>`(f.open_query_count = 0 and f.answered_query_count = 0
  and f.forms_missing_required = 0 and f.sdv_planned_forms = f.sdv_complete_forms
  and f.signature_state = 'signed')`;

/**
 * Whether the subject has a visit overdue on `today`: the read model stores the first day one is
 * (`overdue_from`), which does not change as the days pass; the comparison with today is made here.
 */
function overdueOnSql(today: string): RawBuilder<boolean> {
  return sql<boolean>`(f.overdue_from <= ${today})`;
}

/**
 * The `readiness` rows (ReadinessRow) of the subjects in `scope`, one per facts row: the query
 * counts, signature and SDV counts against the plan, the forms missing required items and the day a
 * visit becomes overdue are stored on it. The overdue visits' count and the hold are worked out per
 * row returned (the windows by the subject's key, the few holds in force): a page's rows, unless a
 * filter or sort on them needs every row's.
 */
function readinessRows(reader: ReaderScope, scope: SiteScope, today: string): RawBuilder<unknown> {
  const studyId = reader.studyId;
  return sql`(
    select f.subject_id, f.site_id, f.screening_number, f.randomization_number, f.site_code,
      f.open_query_count as open_queries,
      f.answered_query_count as answered_queries,
      f.forms_missing_required,
      (f.sdv_planned_forms - f.sdv_complete_forms)::int as forms_sdv_incomplete,
      case when ${overdueOnSql(today)} then (select count(*)::int from subject_visit_windows w
        where w.subject_id = f.subject_id and w.actual_date is null and w.subject_status = 'ongoing'
          and w.earliest_date <= ${today} and w.latest_date < ${today}) else 0 end as overdue_visits,
      f.signature_state as signature,
      coalesce((select max(${holdRankSql}) from holds h
        where h.study_id = ${studyId} and h.lifted_at is null
          and (h.level = 'study' or (h.level = 'site' and h.site_id = f.site_id)
            or (h.level = 'subject' and h.subject_id = f.subject_id))), 0)::int as hold_rank,
      (${lockClearSql} and not coalesce(${overdueOnSql(today)}, false)) as ready
    from subject_facts f
    where f.study_id = ${studyId} and ${inSiteScope('f.site_id', scope)}
  ) readiness`;
}

/**
 * The subjects in scope, and those ready on `today`, from `readiness_totals` (a few rows per site,
 * whatever the trial's size): ready are those nothing stored holds back whose first overdue day,
 * if any, is after today.
 */
function readinessCountsSql(reader: ReaderScope, scope: SiteScope, today: string): RawBuilder<unknown> {
  return sql`(
    select t.site_id, sum(t.subjects)::int as subjects,
      coalesce(sum(t.subjects) filter (where t.lock_clear
        and (t.overdue_from is null or t.overdue_from > ${today})), 0)::int as ready_subjects,
      sum(t.forms_missing_required)::int as forms_missing_required,
      coalesce(sum(t.subjects) filter (where t.invalidated), 0)::int as invalidated_signatures
    from readiness_totals t
    where t.study_id = ${reader.studyId} and ${inSiteScope('t.site_id', scope)}
    group by t.site_id
  )`;
}

function presentSubjectRow(row: ReadinessRow): ReadinessSubjectRow {
  return {
    ...presentListedSubject(row),
    openQueries: row.open_queries,
    answeredQueries: row.answered_queries,
    formsMissingRequired: row.forms_missing_required,
    formsSdvIncomplete: row.forms_sdv_incomplete,
    overdueVisits: row.overdue_visits,
    signature: row.signature,
    ready: row.ready,
    hold: holdMarkOf(row.hold_rank),
  };
}

function sortExpression(sort: ReadinessSubjectsQuery['sort']): RawBuilder<unknown> {
  switch (sort) {
    case 'subjectId':
      return sql`screening_number collate "C"`;
    case 'site':
      return sql`site_code collate "C"`;
    case 'openQueries':
      return sql`open_queries`;
    case 'answeredQueries':
      return sql`answered_queries`;
    case 'formsMissingRequired':
      return sql`forms_missing_required`;
    case 'formsSdvIncomplete':
      return sql`forms_sdv_incomplete`;
    case 'overdueVisits':
      return sql`overdue_visits`;
    case 'signature':
      // What most stands in the way first when descending: invalidated, none, signed.
      return sql`case signature when 'signed' then 0 when 'none' then 1 else 2 end`;
    case 'ready':
      return sql`ready`;
  }
}

/**
 * `GET …/readiness/subjects`: one page of subjects with what stands between them and a lock.
 *
 * The page is read in its order off an index of the facts where one matches (the screening number;
 * most open queries first, `subject_facts_study_open_queries_idx`; the ready subjects,
 * `subject_facts_study_lock_clear_idx`), the state filter checked on the rows read, and the scan
 * stops after the page. The total of a state filter (or none) is a sum over `readiness_totals`. A
 * search or a hold filter is counted over the subjects in scope: no total holds a substring, and
 * holds are few rows that reach a subject through its site or itself.
 */
export async function readinessSubjects(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: ReadinessSubjectsQuery,
): Promise<ReadinessSubjectsResponse> {
  const reader = await readerScope(db, principal, studyId);
  const scope = narrowToSite(reader, query.siteId);
  const today = todayInKorea();
  const conditions: RawBuilder<boolean>[] = [];
  const search = query.subject?.toLowerCase();
  if (search) {
    // strpos, not LIKE: `%` and `_` in the search mean themselves.
    conditions.push(sql<boolean>`(strpos(lower(screening_number), ${search}) > 0
      or strpos(lower(coalesce(randomization_number, '')), ${search}) > 0)`);
  }
  if (query.state === 'ready') conditions.push(sql<boolean>`ready`);
  if (query.state === 'notReady') conditions.push(sql<boolean>`not ready`);
  if (query.hold === 'none') conditions.push(sql<boolean>`hold_rank = 0`);
  if (query.hold === 'frozen') conditions.push(sql<boolean>`hold_rank between 1 and ${sql.lit(LOCK_WEIGHT)}`);
  if (query.hold === 'locked') conditions.push(sql<boolean>`hold_rank > ${sql.lit(LOCK_WEIGHT)}`);
  const where = conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const rows = readinessRows(reader, scope, today);
  const pageOf = (subjects: ReadinessRow[], total: number): ReadinessSubjectsResponse => ({
    subjects: subjects.map(presentSubjectRow),
    total,
    page: query.page,
    size: query.size,
    abilities: holdAbilitiesAt(principal, studyId),
  });
  const order = sql`order by ${sortExpression(query.sort)} ${direction}, screening_number collate "C", subject_id`;
  const page = sql`limit ${query.size} offset ${(query.page - 1) * query.size}`;
  if (!search && query.hold === 'all') {
    // The total from the totals and the page in one statement: one row of nulls beside the total
    // when the page is empty (the few rows of the page sorted again after the join).
    const stateTotal =
      query.state === 'ready'
        ? sql`ready_subjects`
        : query.state === 'notReady'
          ? sql`subjects - ready_subjects`
          : sql`subjects`;
    const result = await sql<(ReadinessRow | { [key in keyof ReadinessRow]: null }) & { total: number }>`
      with page as (select * from ${rows} where ${where} ${order} ${page})
      select page.*, counted.total
      from (select coalesce(sum(${stateTotal}), 0)::int as total
        from ${readinessCountsSql(reader, scope, today)} c) counted
      left join page on true
      ${order}`.execute(db);
    return pageOf(
      result.rows.flatMap((row) => (row.subject_id === null ? [] : [row])),
      result.rows[0]?.total ?? 0,
    );
  }
  // A search or a hold filter: counted over the filtered rows.
  const result = await sql<ReadinessRow & { total: number }>`
    select *, count(*) over ()::int as total from ${rows}
    where ${where} ${order} ${page}`.execute(db);
  let total = result.rows[0]?.total;
  if (total === undefined) {
    const counted = await sql<{ total: number }>`
      select count(*)::int as total from ${rows} where ${where}`.execute(db);
    total = counted.rows[0]?.total ?? 0;
  }
  return pageOf(result.rows, total);
}

type SiteCounts = Omit<ReadinessSiteRow, 'siteId' | 'site' | 'siteName' | 'hold'>;

/**
 * `GET …/readiness/sites`: every site in the reader's scope, the study's sums, and their holds.
 * Each figure is a sum of a few total rows per site (docs/decisions/subject-fact-totals.md):
 * `readiness_totals` (subjects, ready today, forms missing items, invalidated signatures),
 * `subject_fact_totals` (queries, SDV), `subject_list_totals` (unsigned casebooks) and
 * `visit_alarm_totals` (windows whose dates make them overdue today); the holds come from the few
 * holds in force.
 */
export async function readinessSites(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<ReadinessSitesResponse> {
  const reader = await readerScope(db, principal, studyId);
  const scope = reader.scope;
  const today = todayInKorea();
  const result = await sql<{
    site_id: number;
    subjects: number;
    ready_subjects: number;
    open_queries: number;
    answered_queries: number;
    forms_missing_required: number;
    forms_sdv_incomplete: number;
    overdue_visits: number;
    unsigned_casebooks: number;
    invalidated_signatures: number;
  }>`
    select site_id, sum(subjects)::int as subjects, sum(ready_subjects)::int as ready_subjects,
      sum(open_queries)::int as open_queries, sum(answered_queries)::int as answered_queries,
      sum(forms_missing_required)::int as forms_missing_required,
      sum(forms_sdv_incomplete)::int as forms_sdv_incomplete, sum(overdue_visits)::int as overdue_visits,
      sum(unsigned_casebooks)::int as unsigned_casebooks,
      sum(invalidated_signatures)::int as invalidated_signatures
    from (
      select site_id, subjects, ready_subjects, 0 as open_queries, 0 as answered_queries,
        forms_missing_required, 0 as forms_sdv_incomplete, 0 as overdue_visits, 0 as unsigned_casebooks,
        invalidated_signatures
      from ${readinessCountsSql(reader, scope, today)} readiness
      union all
      select site_id, 0, 0, open_queries, answered_queries, 0, sdv_planned_forms - sdv_complete_forms, 0, 0, 0
      from subject_fact_totals where study_id = ${studyId} and ${inSiteScope('site_id', scope)}
      union all
      select site_id, 0, 0, 0, 0, 0, 0, 0, subjects, 0
      from subject_list_totals where study_id = ${studyId} and ${inSiteScope('site_id', scope)} and not signed
      union all
      -- Windows still to be done in follow-up, counted from their dates as the subject alarms count.
      select site_id, 0, 0, 0, 0, 0, 0, windows, 0, 0
      from visit_alarm_totals where study_id = ${studyId} and ${inSiteScope('site_id', scope)}
        and kind = 'pending' and earliest_date <= ${today} and latest_date < ${today}
    ) figures
    group by site_id`.execute(db);
  const bySite = new Map(result.rows.map((row) => [row.site_id, row]));
  // The holds in force: the study's and the sites', and each held subject in scope with its
  // strongest hold, at its site (subject holds are few).
  const holdRanks = await sql<{
    level: 'study' | 'site' | 'subject';
    site_id: number | null;
    hold_rank: number;
  }>`
    select h.level, h.site_id, max(${holdRankSql})::int as hold_rank from holds h
    where h.study_id = ${studyId} and h.lifted_at is null and h.level in ('study', 'site')
    group by h.level, h.site_id
    union all
    select 'subject', f.site_id, max(${holdRankSql})::int from holds h
    join subject_facts f on f.subject_id = h.subject_id
    where h.study_id = ${studyId} and h.lifted_at is null and h.level = 'subject'
      and f.study_id = ${studyId} and ${inSiteScope('f.site_id', scope)}
    group by f.site_id, f.subject_id`.execute(db);
  const studyRank = holdRanks.rows.find((row) => row.level === 'study')?.hold_rank ?? 0;
  const rankOfSite = new Map(
    holdRanks.rows.filter((row) => row.level === 'site').map((row) => [row.site_id, row.hold_rank]),
  );
  const subjectHolds = holdRanks.rows.filter((row) => row.level === 'subject');
  const heldRanksAt = new Map<number, number[]>();
  for (const row of subjectHolds) {
    if (row.site_id === null) continue;
    heldRanksAt.set(row.site_id, [...(heldRanksAt.get(row.site_id) ?? []), row.hold_rank]);
  }
  /**
   * A site's frozen and locked subjects: a study or site hold reaches every subject there, a
   * subject hold its subject; each subject counts under the strongest that reaches it.
   */
  const heldSubjects = (siteId: number, subjects: number) => {
    const siteRank = Math.max(studyRank, rankOfSite.get(siteId) ?? 0);
    const ranks = (heldRanksAt.get(siteId) ?? []).map((rank) => Math.max(siteRank, rank));
    const locked = ranks.filter((rank) => rank > LOCK_WEIGHT).length;
    if (siteRank > LOCK_WEIGHT) return { frozenSubjects: 0, lockedSubjects: subjects };
    if (siteRank > 0) return { frozenSubjects: subjects - locked, lockedSubjects: locked };
    return {
      frozenSubjects: ranks.filter((rank) => rank > 0 && rank <= LOCK_WEIGHT).length,
      lockedSubjects: locked,
    };
  };
  const total: SiteCounts = {
    subjects: 0,
    readySubjects: 0,
    openQueries: 0,
    answeredQueries: 0,
    formsMissingRequired: 0,
    formsSdvIncomplete: 0,
    overdueVisits: 0,
    unsignedCasebooks: 0,
    invalidatedSignatures: 0,
    frozenSubjects: 0,
    lockedSubjects: 0,
  };
  const sites = reader.sites.map((site) => {
    const row = bySite.get(site.id);
    const counts: SiteCounts = {
      subjects: row?.subjects ?? 0,
      readySubjects: row?.ready_subjects ?? 0,
      openQueries: row?.open_queries ?? 0,
      answeredQueries: row?.answered_queries ?? 0,
      formsMissingRequired: row?.forms_missing_required ?? 0,
      formsSdvIncomplete: row?.forms_sdv_incomplete ?? 0,
      overdueVisits: row?.overdue_visits ?? 0,
      unsignedCasebooks: row?.unsigned_casebooks ?? 0,
      invalidatedSignatures: row?.invalidated_signatures ?? 0,
      ...heldSubjects(site.id, row?.subjects ?? 0),
    };
    for (const key of Object.keys(total) as (keyof SiteCounts)[]) total[key] += counts[key];
    const rank = Math.max(studyRank, rankOfSite.get(site.id) ?? 0);
    return { siteId: site.id, site: site.code, siteName: site.name, ...counts, hold: holdMarkOf(rank) };
  });
  return {
    sites,
    study: { ...total, hold: holdMarkOf(studyRank) },
    abilities: holdAbilitiesAt(principal, studyId),
  };
}
