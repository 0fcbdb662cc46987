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
import type { Database } from '../db/schema.ts';
import { siteFilter } from '../sdv-state/sdv-sql.ts';
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
 * The `readiness` CTE: one row per subject in `scope` (ReadinessRow), from the read model's row of
 * each subject (its query counts, signature and SDV counts against the plan) and, for forms missing
 * required items and overdue visits, partial indexes that hold only the forms and visits that stand
 * in the way — so the board reads one row per subject, not every item of the trial.
 */
function readinessCtes(reader: ReaderScope, scope: SiteScope): RawBuilder<unknown> {
  const studyId = reader.studyId;
  const today = todayInKorea();
  return sql`
    scoped as (
      select f.* from subject_facts f
      where f.study_id = ${studyId} and ${siteFilter('f.site_id', scope)}
    ),
    missing_required as (
      select fi.subject_id, count(*)::int as forms
      from form_instances fi join scoped r on r.subject_id = fi.subject_id
      where fi.has_data and fi.status = 'dash'
      group by fi.subject_id
    ),
    overdue as (
      select w.subject_id, count(*)::int as visits
      from subject_visit_windows w
      where w.study_id = ${studyId} and w.actual_date is null and w.subject_status = 'ongoing'
        and w.earliest_date <= ${today} and w.latest_date < ${today}
      group by w.subject_id
    ),
    subject_holds as (
      select r.subject_id, max(${holdRankSql})::int as hold_rank
      from scoped r
      join holds h on h.study_id = ${studyId} and h.lifted_at is null
        and (h.level = 'study' or (h.level = 'site' and h.site_id = r.site_id)
          or (h.level = 'subject' and h.subject_id = r.subject_id))
      group by r.subject_id
    ),
    counted as (
      select r.subject_id, r.site_id, r.screening_number, r.randomization_number,
        (select sites.code from sites where sites.id = r.site_id) as site_code,
        r.open_query_count as open_queries,
        r.answered_query_count as answered_queries,
        coalesce(m.forms, 0)::int as forms_missing_required,
        (r.sdv_planned_forms - r.sdv_complete_forms)::int as forms_sdv_incomplete,
        coalesce(o.visits, 0)::int as overdue_visits,
        r.signature_state as signature,
        coalesce(sh.hold_rank, 0)::int as hold_rank
      from scoped r
      left join missing_required m on m.subject_id = r.subject_id
      left join overdue o on o.subject_id = r.subject_id
      left join subject_holds sh on sh.subject_id = r.subject_id
    ),
    readiness as (
      select *, (open_queries = 0 and answered_queries = 0 and forms_missing_required = 0
        and forms_sdv_incomplete = 0 and overdue_visits = 0 and signature = 'signed') as ready
      from counted
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

/** `GET …/readiness/subjects`: one page of subjects with what stands between them and a lock. */
export async function readinessSubjects(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: ReadinessSubjectsQuery,
): Promise<ReadinessSubjectsResponse> {
  const reader = await readerScope(db, principal, studyId);
  const scope = narrowToSite(reader, query.siteId);
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
  const ctes = readinessCtes(reader, scope);
  const result = await sql<ReadinessRow & { total: number }>`
    with ${ctes}
    select *, count(*) over ()::int as total from readiness
    where ${where}
    order by ${sortExpression(query.sort)} ${direction}, screening_number collate "C", subject_id
    limit ${query.size} offset ${(query.page - 1) * query.size}`.execute(db);
  let total = result.rows[0]?.total;
  if (total === undefined) {
    const counted = await sql<{ total: number }>`
      with ${ctes} select count(*)::int as total from readiness where ${where}`.execute(db);
    total = counted.rows[0]?.total ?? 0;
  }
  return {
    subjects: result.rows.map(presentSubjectRow),
    total,
    page: query.page,
    size: query.size,
    abilities: holdAbilitiesAt(principal, studyId),
  };
}

type SiteCounts = Omit<ReadinessSiteRow, 'siteId' | 'site' | 'siteName' | 'hold'>;

/** `GET …/readiness/sites`: every site in the reader's scope, the study's sums, and their holds. */
export async function readinessSites(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<ReadinessSitesResponse> {
  const reader = await readerScope(db, principal, studyId);
  const ctes = readinessCtes(reader, reader.scope);
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
    frozen_subjects: number;
    locked_subjects: number;
  }>`
    with ${ctes}
    select site_id, count(*)::int as subjects, count(*) filter (where ready)::int as ready_subjects,
      sum(open_queries)::int as open_queries, sum(answered_queries)::int as answered_queries,
      sum(forms_missing_required)::int as forms_missing_required,
      sum(forms_sdv_incomplete)::int as forms_sdv_incomplete, sum(overdue_visits)::int as overdue_visits,
      count(*) filter (where signature <> 'signed')::int as unsigned_casebooks,
      count(*) filter (where signature = 'invalidated')::int as invalidated_signatures,
      count(*) filter (where hold_rank between 1 and ${sql.lit(LOCK_WEIGHT)})::int as frozen_subjects,
      count(*) filter (where hold_rank > ${sql.lit(LOCK_WEIGHT)})::int as locked_subjects
    from readiness group by site_id`.execute(db);
  const bySite = new Map(result.rows.map((row) => [row.site_id, row]));
  const siteHolds = await sql<{ site_id: number | null; hold_rank: number }>`
    select h.site_id, max(${holdRankSql})::int as hold_rank from holds h
    where h.study_id = ${studyId} and h.lifted_at is null and h.level in ('study', 'site')
    group by h.site_id`.execute(db);
  const studyRank = siteHolds.rows.find((row) => row.site_id === null)?.hold_rank ?? 0;
  const rankOfSite = new Map(siteHolds.rows.map((row) => [row.site_id, row.hold_rank]));
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
      frozenSubjects: row?.frozen_subjects ?? 0,
      lockedSubjects: row?.locked_subjects ?? 0,
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
