import {
  type QueryAgeBucket,
  type QueryListFilter,
  type QueryListResponse,
  type QueryListRow,
  queryAgeBuckets,
  queryKinds,
  type queryListQuerySchema,
  queryStates,
  todayInKorea,
} from '@cdms/contract';
import { getStudyIndex, type StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { can, type SiteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { narrowToSite, readerScope } from '../visit-alarms/reader-scope.ts';
import { lastMessagesOf, presentQueryRow, type QueryRowWithSubject } from './query-presenter.ts';

/**
 * The study's query list (issue 14): the reader's sites only (site staff their sites, CRA theirs,
 * DM and ADMIN all: `readerScope`), filtered, sorted, counted and paged in SQL over `queries` and
 * its indexes; only the page's rows are read, with their last messages in one more query.
 *
 * Flat in the trial's size (issue 46): a page is read off an index in its order, one state at a time
 * (`pageOfQueries`), and the usual filters are counted from `query_list_totals` (`countListedQueries`).
 */

type AnyQuery = SelectQueryBuilder<Database, 'queries' | 'subjects' | 'sites', QueryRowWithSubject>;
type QueryStatus = (typeof queryStates)[number];

/**
 * The day (UTC+9) a query was opened, as the age index (migration 2026-12-06T1940) names it: an
 * open or answered query's age is today minus this day.
 */
const OPENED_DAY = sql<string>`(((queries.opened_at at time zone 'UTC') + interval '9 hours')::date)`;

/** Whole days (UTC+9) from opening to closing, or to today while the query is unresolved. */
export function ageDaysExpression(today: string): RawBuilder<number> {
  return sql<number>`((case when queries.status in ('closed', 'cancelled') and queries.closed_at is not null
      then ((queries.closed_at at time zone 'UTC') + interval '9 hours')::date
      else ${today}::date end)
    - ((queries.opened_at at time zone 'UTC') + interval '9 hours')::date)`;
}

/** The age buckets' day limits, for the list's filter and the query-aging report alike. */
export const AGE_BOUNDS: Record<QueryAgeBucket, [number, number | null]> = {
  '0-7': [0, 7],
  '8-14': [8, 14],
  '15-30': [15, 30],
  '31+': [31, null],
};

/** The bucket of an age in days: the first whose upper limit it does not pass (as `ageBucketExpression`). */
export function ageBucketOf(days: number): QueryAgeBucket {
  return queryAgeBuckets.find((bucket) => {
    const upper = AGE_BOUNDS[bucket][1];
    return upper === null || days <= upper;
  }) as QueryAgeBucket;
}

/** The bucket of a query's age as SQL: the first bucket whose upper limit the age does not pass. */
export function ageBucketExpression(today: string): RawBuilder<QueryAgeBucket> {
  const age = ageDaysExpression(today);
  const limited = queryAgeBuckets.filter((bucket) => AGE_BOUNDS[bucket][1] !== null);
  const open = queryAgeBuckets.find((bucket) => AGE_BOUNDS[bucket][1] === null);
  return sql<QueryAgeBucket>`case ${sql.join(
    limited.map((bucket) => sql`when ${age} <= ${sql.lit(AGE_BOUNDS[bucket][1])} then ${sql.lit(bucket)}`),
    sql` `,
  )} else ${sql.lit(open ?? '')} end`;
}

export interface QueryListContext {
  studyId: number;
  scope: SiteScope;
  definition: StudyDefinition | null;
  studyCode: string;
  today: string;
}

export async function queryListContext(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  siteId: number | undefined,
): Promise<QueryListContext> {
  const reader = await readerScope(db, principal, studyId);
  const scope = narrowToSite(reader, siteId);
  const studyCode = await readStudyCode(db, studyId);
  return { studyId, scope, definition: reader.definition, studyCode, today: todayInKorea() };
}

/** Queries with what a list row or a thread shows of their subject and site, and their age on `today`. */
export function queriesWithSubject(db: Kysely<Database>, today: string) {
  return db
    .selectFrom('queries')
    .innerJoin('subjects', 'subjects.id', 'queries.subject_id')
    .innerJoin('sites', 'sites.id', 'queries.site_id')
    .leftJoin('subject_facts', 'subject_facts.subject_id', 'queries.subject_id')
    .selectAll('queries')
    .select([
      'subject_facts.randomization_number',
      'sites.code as site_code',
      ageDaysExpression(today).as('age_days'),
    ]);
}

/** The filter's conditions on the query's own columns: every filter but the age and the subject search. */
function ownConditions(context: QueryListContext, filter: QueryListFilter): RawBuilder<boolean>[] {
  const conditions = [sql<boolean>`queries.study_id = ${context.studyId}`];
  if (context.scope !== 'all')
    conditions.push(sql<boolean>`queries.site_id in (${sql.join([...context.scope])})`);
  if (filter.state === 'unresolved') conditions.push(sql<boolean>`queries.status in ('open', 'answered')`);
  else if (filter.state !== 'all') conditions.push(sql<boolean>`queries.status = ${filter.state}`);
  if (filter.kind !== 'all') conditions.push(sql<boolean>`queries.kind = ${filter.kind}`);
  if (filter.assignee !== 'all') conditions.push(sql<boolean>`queries.assignee = ${filter.assignee}`);
  if (filter.visitKey) conditions.push(sql<boolean>`queries.visit_key = ${filter.visitKey}`);
  if (filter.formKey) conditions.push(sql<boolean>`queries.form_key = ${filter.formKey}`);
  if (filter.itemPath !== undefined && filter.itemPath !== '')
    conditions.push(sql<boolean>`queries.item_path = ${filter.itemPath}`);
  // strpos, not LIKE: the search is plain text, `%` and `_` in it mean themselves. The messages'
  // lowercased copies (`search_ko`, `search_en`) spare opening their JSON; a page's lookups read
  // them from a covering index.
  const text = filter.text?.toLowerCase();
  if (text) {
    conditions.push(
      sql<boolean>`exists (select 1 from query_messages m where m.query_id = queries.id
        and (strpos(m.search_ko, ${text}) > 0 or strpos(m.search_en, ${text}) > 0))`,
    );
  }
  return conditions;
}

export function filteredQueries(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
): AnyQuery {
  let query = (queriesWithSubject(db, context.today) as unknown as AnyQuery).where(
    'subjects.deleted_at',
    'is',
    null,
  );
  for (const condition of [...ownConditions(context, filter), ...ageConditions(context, filter.age)])
    query = query.where(condition);
  const subject = filter.subject?.toLowerCase();
  if (subject) {
    query = query.where(
      sql<boolean>`(strpos(lower(subjects.screening_number), ${subject}) > 0
        or strpos(lower(coalesce(subject_facts.randomization_number, '')), ${subject}) > 0
        or strpos(lower(subjects.initials), ${subject}) > 0)`,
    );
  }
  return query;
}

function rankOf(column: RawBuilder<unknown>, values: readonly string[]): RawBuilder<number | null> {
  if (values.length === 0) return sql<number | null>`1`;
  return sql<
    number | null
  >`coalesce(array_position(array[${sql.join(values)}]::text[], ${column}), ${values.length + 1})`;
}

function sortExpression(filter: QueryListFilter, context: QueryListContext): RawBuilder<unknown> {
  const schedule = context.definition ? getStudyIndex(context.definition).schedule : [];
  switch (filter.sort) {
    case 'age':
      return ageDaysExpression(context.today);
    case 'openedAt':
      return sql`queries.opened_at`;
    case 'lastMessageAt':
      return sql`queries.last_message_at`;
    case 'subjectId':
      return sql`subjects.screening_number collate "C"`;
    case 'site':
      return sql`sites.code collate "C"`;
    case 'visit':
      return rankOf(sql`queries.visit_key`, context.definition?.visits.map((visit) => visit.key) ?? []);
    case 'form':
      return rankOf(
        sql`queries.visit_key || '.' || queries.form_key`,
        schedule.map((layout) => `${layout.visitKey}.${layout.form.key}`),
      );
    case 'state':
      return rankOf(sql`queries.status`, queryStates);
    case 'kind':
      return rankOf(sql`queries.kind`, queryKinds);
  }
}

export function sortedQueries(query: AnyQuery, filter: QueryListFilter, context: QueryListContext): AnyQuery {
  const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
  return query
    .orderBy(sql`${sortExpression(filter, context)} ${direction} nulls last`)
    .orderBy('queries.id', filter.order === 'asc' ? 'asc' : 'desc');
}

export async function countQueries(query: AnyQuery): Promise<number> {
  const row = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The statuses a state filter lets through: the list reads each on its own. */
function statusesOf(state: QueryListFilter['state']): readonly QueryStatus[] {
  if (state === 'unresolved') return ['open', 'answered'];
  if (state === 'all') return queryStates;
  return [state];
}

function isUnresolved(status: QueryStatus): boolean {
  return status === 'open' || status === 'answered';
}

/**
 * The age filter's conditions. Of an open or answered query (`status`), whose age is today minus the
 * day it was opened, a range of that day, which the age index reads; otherwise on the age worked
 * out for each query (a closed query's age ends on the day it was closed).
 */
function ageConditions(
  context: QueryListContext,
  age: QueryListFilter['age'],
  status?: QueryStatus,
): RawBuilder<boolean>[] {
  if (age === 'all') return [];
  const [low, high] = AGE_BOUNDS[age];
  if (status !== undefined && isUnresolved(status)) {
    const conditions = [sql<boolean>`${OPENED_DAY} <= ${context.today}::date - ${sql.lit(low)}`];
    if (high !== null)
      conditions.push(sql<boolean>`${OPENED_DAY} >= ${context.today}::date - ${sql.lit(high)}`);
    return conditions;
  }
  const days = ageDaysExpression(context.today);
  const conditions = [sql<boolean>`${days} >= ${low}`];
  if (high !== null) conditions.push(sql<boolean>`${days} <= ${high}`);
  return conditions;
}

/** The filtered queries of one status, with what a row shows. */
function queriesOfStatus(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
  status: QueryStatus,
): AnyQuery {
  let query = filteredQueries(db, context, { ...filter, state: status, age: 'all' });
  for (const condition of ageConditions(context, filter.age, status)) query = query.where(condition);
  return query;
}

/**
 * The count of one status's filtered queries. Only a subject search needs the subject's row; the
 * others read `queries` alone, leaving out subjects deleted as the totals do (`countListedQueries`).
 */
function countOfStatus(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
  status: QueryStatus,
) {
  if (filter.subject)
    return queriesOfStatus(db, context, filter, status)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'));
  let query = db.selectFrom('queries').select((eb) => eb.fn.countAll<number>().as('total'));
  for (const condition of [
    ...ownConditions(context, { ...filter, state: status }),
    ...ageConditions(context, filter.age, status),
  ])
    query = query.where(condition);
  return query;
}

/**
 * One status's queries in the page's order, as its index hands them over (migration
 * 2026-12-06T1940: study, status, then the sort's column and the id the same way as the list breaks
 * ties): the oldest unresolved first is the day opened ascending, ties by the newest id first. The
 * columns are not null, so "nulls last" is left out: with it the order would not be the index's.
 * The other sorts (site, visit, form, state, kind, a closed query's age) are worked out over every
 * query of the status: they grow with the trial, and are not the list's usual ones.
 */
function inIndexOrder(
  query: AnyQuery,
  filter: QueryListFilter,
  context: QueryListContext,
  status: QueryStatus,
): AnyQuery {
  const ascending = filter.order === 'asc';
  const direction = ascending ? sql`asc` : sql`desc`;
  const byId = (ordered: AnyQuery, idAscending: boolean) =>
    ordered.orderBy('queries.id', idAscending ? 'asc' : 'desc');
  switch (filter.sort) {
    case 'age':
      if (!isUnresolved(status)) break;
      // The older, the earlier opened: age descending is the day ascending.
      return byId(query.orderBy(sql`${OPENED_DAY} ${ascending ? sql`desc` : sql`asc`}`), ascending);
    case 'openedAt':
      return byId(query.orderBy(sql`queries.opened_at ${direction}`), ascending);
    case 'lastMessageAt':
      return byId(query.orderBy(sql`queries.last_message_at ${direction}`), ascending);
    case 'subjectId':
      return byId(query.orderBy(sql`queries.screening_number collate "C" ${direction}`), ascending);
  }
  return sortedQueries(query, filter, context);
}

/**
 * A page of the list: the first `offset + size` rows of each status the filter lets through, each
 * read off its index, merged in the list's order (the sort's value, then the id), and the page cut
 * from them. Rows no status page reaches cannot be on the page, so the work is the page's depth
 * times the number of statuses, whatever the number of queries.
 */
export async function pageOfQueries(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
  page: { offset: number; size: number },
): Promise<QueryRowWithSubject[]> {
  const sortKey = sortExpression(filter, context);
  const statusPages = statusesOf(filter.state).map(
    (status) =>
      sql`(${inIndexOrder(queriesOfStatus(db, context, filter, status), filter, context, status)
        .select(sortKey.as('sort_key'))
        .limit(page.offset + page.size)})`,
  );
  const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
  const result = await sql<QueryRowWithSubject>`
    select * from (${sql.join(statusPages, sql` union all `)}) page
    order by sort_key ${direction} nulls last, id ${direction}
    limit ${page.size} offset ${page.offset}`.execute(db);
  return result.rows;
}

/**
 * The filter's total. The state, kind, assignee and the reader's sites are summed from
 * `query_list_totals` (a few rows per site). A visit, form or item, an age, a subject or words of the
 * thread are counted over the queries, one status at a time like the page: an age over the age
 * index's range of opening days (the open or answered queries opened in the range), the others over
 * the filtered queries — those counts grow with the number of queries that match.
 *
 * The totals, and the counts but for a subject search, count every query of the study, the list
 * only those of subjects not deleted: the same, because a subject with a query cannot be deleted
 * (`deleteSubject`: 409 `subject_has_data`) and a deleted subject gets no query (every write locks
 * a live subject).
 */
export async function countListedQueries(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
): Promise<number> {
  if (noQueries(context)) return 0;
  const statuses = statusesOf(filter.state);
  const counted =
    !!filter.visitKey ||
    !!filter.formKey ||
    (filter.itemPath !== undefined && filter.itemPath !== '') ||
    filter.age !== 'all' ||
    !!filter.subject ||
    !!filter.text;
  if (counted) {
    const counts = statuses.map((status) => sql`(${countOfStatus(db, context, filter, status)})`);
    const row = await sql<{ total: string }>`select ${sql.join(counts, sql` + `)} as total`.execute(db);
    return Number(row.rows[0]?.total ?? 0);
  }
  let totals = db
    .selectFrom('query_list_totals')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('queries'), sql<number>`0`).as('total'))
    .where('study_id', '=', context.studyId)
    .where('status', 'in', [...statuses]);
  if (context.scope !== 'all') totals = totals.where('site_id', 'in', [...context.scope]);
  if (filter.kind !== 'all') totals = totals.where('kind', '=', filter.kind);
  if (filter.assignee !== 'all') totals = totals.where('assignee', '=', filter.assignee);
  const row = await totals.executeTakeFirstOrThrow();
  return Number(row.total);
}

function noQueries(context: QueryListContext): boolean {
  return context.scope !== 'all' && context.scope.size === 0;
}

export async function presentRows(
  db: Kysely<Database>,
  rows: QueryRowWithSubject[],
  definition: StudyDefinition | null,
): Promise<QueryListRow[]> {
  const last = await lastMessagesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentQueryRow(row, definition, last.get(row.id)));
}

export async function listQueries(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  request: z.output<typeof queryListQuerySchema>,
): Promise<QueryListResponse> {
  const { page, size, ...filter } = request;
  const context = await queryListContext(db, principal, studyId, filter.siteId);
  const canManage = can(principal, 'query.manage', { studyId });
  if (noQueries(context)) return { queries: [], total: 0, page, size, canManage };
  const [rows, total] = await Promise.all([
    pageOfQueries(db, context, filter, { offset: (page - 1) * size, size }),
    countListedQueries(db, context, filter),
  ]);
  return { queries: await presentRows(db, rows, context.definition), total, page, size, canManage };
}

const EXPORT_CHUNK = 500;

/** Every row of the filtered list, a chunk at a time (the download). */
export async function* allQueryRows(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
): AsyncGenerator<QueryListRow[]> {
  if (noQueries(context)) return;
  const query = sortedQueries(filteredQueries(db, context, filter), filter, context);
  for (let offset = 0; ; offset += EXPORT_CHUNK) {
    const rows = await query.limit(EXPORT_CHUNK).offset(offset).execute();
    yield await presentRows(db, rows, context.definition);
    if (rows.length < EXPORT_CHUNK) return;
  }
}
