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
 */

type AnyQuery = SelectQueryBuilder<Database, 'queries' | 'subjects' | 'sites', QueryRowWithSubject>;

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
      'subjects.screening_number',
      'subject_facts.randomization_number',
      'sites.code as site_code',
      ageDaysExpression(today).as('age_days'),
    ]);
}

export function filteredQueries(
  db: Kysely<Database>,
  context: QueryListContext,
  filter: QueryListFilter,
): AnyQuery {
  let query = queriesWithSubject(db, context.today)
    .where('queries.study_id', '=', context.studyId)
    .where('subjects.deleted_at', 'is', null) as unknown as AnyQuery;
  if (context.scope !== 'all') query = query.where('queries.site_id', 'in', [...context.scope]);
  if (filter.state === 'unresolved') query = query.where('queries.status', 'in', ['open', 'answered']);
  else if (filter.state !== 'all') query = query.where('queries.status', '=', filter.state);
  if (filter.kind !== 'all') query = query.where('queries.kind', '=', filter.kind);
  if (filter.assignee !== 'all') query = query.where('queries.assignee', '=', filter.assignee);
  if (filter.visitKey) query = query.where('queries.visit_key', '=', filter.visitKey);
  if (filter.formKey) query = query.where('queries.form_key', '=', filter.formKey);
  if (filter.itemPath !== undefined && filter.itemPath !== '')
    query = query.where('queries.item_path', '=', filter.itemPath);
  if (filter.age !== 'all') {
    const [low, high] = AGE_BOUNDS[filter.age];
    const age = ageDaysExpression(context.today);
    query = query.where(sql<boolean>`${age} >= ${low}`);
    if (high !== null) query = query.where(sql<boolean>`${age} <= ${high}`);
  }
  // strpos, not LIKE: the search is plain text, `%` and `_` in it mean themselves.
  const subject = filter.subject?.toLowerCase();
  if (subject) {
    query = query.where(
      sql<boolean>`(strpos(lower(subjects.screening_number), ${subject}) > 0
        or strpos(lower(coalesce(subject_facts.randomization_number, '')), ${subject}) > 0
        or strpos(lower(subjects.initials), ${subject}) > 0)`,
    );
  }
  const text = filter.text?.toLowerCase();
  if (text) {
    query = query.where(
      sql<boolean>`exists (select 1 from query_messages m where m.query_id = queries.id
        and (strpos(lower(m.text->>'ko'), ${text}) > 0 or strpos(lower(m.text->>'en'), ${text}) > 0))`,
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
  const base = filteredQueries(db, context, filter);
  const [rows, total] = await Promise.all([
    sortedQueries(base, filter, context)
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    countQueries(base),
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
