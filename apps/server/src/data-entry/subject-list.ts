import {
  type CodedValue,
  type Hold,
  holdCovers,
  presetDates,
  refuseUnderHolds,
  type SubjectListFilter,
  type SubjectListResponse,
  type SubjectListRow,
  type SubjectListSortKey,
  type subjectListQuerySchema,
  subjectStatuses,
  subjectStatusOfValue,
  subjectStatusValueOf,
  todayInKorea,
} from '@cdms/contract';
import type { Code, StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { can, type SiteScope, siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, SubjectFactsRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { subjectFactCodes } from '../read-model/subject-facts.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';

/**
 * The full subject list and its download (prototype-spec §2 "Subject list", §3 "Subject (list row)").
 * Every column comes from the read model (`subject_facts`, kept current by every write), so the
 * list filters, sorts, counts and pages in SQL: a page costs the same at 30 subjects as at 5,000.
 */

/**
 * How the coded columns sort: by their place in the definition's code lists, not by label. (The
 * last visit's place is stored in the read model, `last_visit_order`.)
 */
interface SortOrders {
  gender: Code[];
  screeningFailureReason: Code[];
  dropoutReason: Code[];
}

type ListRow = SubjectFactsRow;
type ListQuery = SelectQueryBuilder<Database & { f: SubjectFactsRow }, 'f', ListRow>;

function coded(codes: Code[], code: string | null): CodedValue | null {
  if (code === null) return null;
  const known = codes.find((entry) => entry.code === code);
  // A code the current definition no longer lists is still shown, by its code.
  return { code, label: known ? known.label : { ko: code, en: code } };
}

function presentRow(
  row: ListRow,
  number: number,
  definition: StudyDefinition,
  orders: SortOrders,
  canDelete: boolean,
  unblinded: boolean,
): SubjectListRow {
  const lastVisit = definition.visits.find((visit) => visit.key === row.last_visit_key);
  return {
    pk: row.subject_id,
    number,
    subjectId: row.screening_number,
    initials: row.initials,
    siteId: row.site_id,
    site: row.site_code,
    registrationNumber: row.randomization_number,
    status: subjectStatusValueOf[row.status],
    gender: coded(orders.gender, row.gender),
    age: row.age,
    consentDate: row.consent_date,
    registrationDate: row.registered_on,
    firstVisitDate: row.first_visit_date,
    lastVisitDate:
      row.last_visit_key === null
        ? null
        : {
            code: row.last_visit_key,
            label: lastVisit?.label ?? { ko: row.last_visit_key, en: row.last_visit_key },
          },
    lastVisitDateActual: row.last_visit_date,
    adverseReaction: row.adverse_event_count,
    unresolvedQuery: row.open_query_count + row.answered_query_count,
    // An invalidated signature must be given again: the list shows it as pending.
    initialSignature: row.signature_state === 'signed' ? 'done' : 'pending',
    registrationFailureReason: coded(orders.screeningFailureReason, row.screening_failure_reason),
    dropoutReason: coded(orders.dropoutReason, row.dropout_reason),
    canDelete,
    unblinded,
  };
}

/**
 * Whether the user may delete each listed subject, as `deleteSubject` decides before it looks at the
 * data: the role at the subject's site, and no freeze or lock of the subject, its site or the study
 * (lock-rules.ts: a freeze refuses a deletion too). The holds in force over the study's sites and
 * subjects are few (a hold is a deliberate act of the monitor or data manager), so they are read once
 * for the page and matched to each row here. A subject with data is still refused (409): `canDelete`
 * does not read the data.
 */
async function deletionAbilities(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<(row: { subject_id: number; site_id: number }) => boolean> {
  // A role that deletes nowhere in the study (monitors, data managers) needs no holds read.
  if (!can(principal, 'subject.delete', { studyId })) return () => false;
  const holds = await db
    .selectFrom('holds')
    .select(['kind', 'level', 'site_id', 'subject_id'])
    .where('study_id', '=', studyId)
    .where('lifted_at', 'is', null)
    .where('level', 'in', ['study', 'site', 'subject'])
    .execute();
  return (row) => {
    if (!can(principal, 'subject.delete', { studyId, siteId: row.site_id })) return false;
    const target = { siteId: row.site_id, subjectId: row.subject_id };
    const over: Hold[] = holds
      .filter((hold) =>
        holdCovers({ level: hold.level, siteId: hold.site_id, subjectId: hold.subject_id }, target),
      )
      .map((hold) => ({ kind: hold.kind, level: hold.level }));
    return refuseUnderHolds('subject.delete', over) === null;
  };
}

/** The period a filter asks for: its dates, or a 3/6-month preset ending today (UTC+9). */
export function filterPeriod(filter: SubjectListFilter, today: string): { start?: string; end?: string } {
  if (!filter.start && !filter.end && filter.range !== 'all') return presetDates(filter.range, today);
  return {
    ...(filter.start ? { start: filter.start } : {}),
    ...(filter.end ? { end: filter.end } : {}),
  };
}

const dateColumn = {
  consentDate: 'f.consent_date',
  registrationDate: 'f.registered_on',
  firstVisitDate: 'f.first_visit_date',
  lastVisitDate: 'f.last_visit_date',
} as const;

/**
 * A code's place in its list (1-based); a code the list does not know sorts after every listed
 * one, an empty cell stays null (sorted last in either direction).
 */
function rankOf(column: RawBuilder<unknown>, codes: readonly string[]): RawBuilder<number | null> {
  if (codes.length === 0) return sql<number | null>`case when ${column} is null then null else 1 end`;
  return sql<number | null>`case when ${column} is null then null
    else coalesce(array_position(array[${sql.join(codes)}]::text[], ${column}), ${codes.length + 1}) end`;
}

/**
 * The SQL value a column sorts by. Text compares by code point (`collate "C"`), as the screen's
 * strings do; coded columns by their place in the definition; the status in workflow order.
 * The sorts people use on a large trial are plain columns of the read model with an index that
 * matches the whole ORDER BY (migration 2026-11-30T1300): the page is read off the index instead
 * of sorting every filtered subject.
 */
function sortExpression(key: SubjectListSortKey, orders: SortOrders): RawBuilder<unknown> {
  const codes = (list: readonly Code[]) => list.map((code) => code.code);
  switch (key) {
    case 'subjectId':
      return sql`f.screening_number collate "C"`;
    case 'site':
      return sql`f.site_code collate "C"`;
    case 'registrationNumber':
      return sql`f.randomization_number collate "C"`;
    case 'status':
      return rankOf(sql`f.status`, subjectStatuses);
    case 'gender':
      return rankOf(sql`f.gender`, codes(orders.gender));
    case 'age':
      return sql`f.age`;
    case 'consentDate':
      return sql`f.consent_date`;
    case 'registrationDate':
      return sql`f.registered_on`;
    case 'firstVisitDate':
      return sql`f.first_visit_date`;
    case 'lastVisitDate':
      return sql`f.last_visit_order`;
    case 'lastVisitDateActual':
      return sql`f.last_visit_date`;
    case 'adverseReaction':
      return sql`f.adverse_event_count`;
    case 'unresolvedQuery':
      // The expression the index of migration 2026-11-30T1400 is built on, written the same way.
      return sql`(f.open_query_count + f.answered_query_count)`;
    case 'initialSignature':
      // 'done' before 'pending', as the column's values compare.
      return sql`case when f.signature_state = 'signed' then 0 else 1 end`;
    case 'registrationFailureReason':
      return rankOf(sql`f.screening_failure_reason`, codes(orders.screeningFailureReason));
    case 'dropoutReason':
      return rankOf(sql`f.dropout_reason`, codes(orders.dropoutReason));
  }
}

interface ListContext {
  studyCode: string;
  definition: StudyDefinition | null;
  orders: SortOrders;
  sites: SiteScope;
}

async function listContext(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<ListContext> {
  const study = await db.selectFrom('studies').select('code').where('id', '=', studyId).executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const current = await currentStudyDefinition(db, studyId);
  const definition = current?.definition ?? null;
  const orders: SortOrders = definition
    ? subjectFactCodes(definition)
    : { gender: [], screeningFailureReason: [], dropoutReason: [] };
  return { studyCode: study.code, definition, orders, sites: siteScope(principal, 'subject.read', studyId) };
}

/** The filtered subjects of the study in the reader's sites (deleted subjects have no row). */
function filteredQuery(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
  filter: SubjectListFilter,
  today: string,
): ListQuery {
  let query = db
    .selectFrom('subject_facts as f')
    .selectAll('f')
    .where('f.study_id', '=', studyId) as unknown as ListQuery;
  if (sites !== 'all') query = query.where('f.site_id', 'in', [...sites]);
  const { start, end } = filterPeriod(filter, today);
  // A subject without the chosen date (no visit yet) is outside any period.
  if (start) query = query.where(dateColumn[filter.dateType], '>=', start);
  if (end) query = query.where(dateColumn[filter.dateType], '<=', end);
  if (filter.status !== 'all') query = query.where('f.status', '=', subjectStatusOfValue[filter.status]);
  if (filter.signature === 'true') query = query.where('f.signature_state', '=', 'signed');
  if (filter.signature === 'false') query = query.where('f.signature_state', '<>', 'signed');
  const needle = filter.search?.toLowerCase();
  if (needle) {
    // strpos, not LIKE: the search is plain text, `%` and `_` in it mean themselves.
    const contains = (column: RawBuilder<unknown>) => sql<boolean>`strpos(lower(${column}), ${needle}) > 0`;
    query = query.where((eb) =>
      eb.or([
        // The screening number, randomization number and initials, stored lowercased one a line
        // (`search_text`): one strpos per subject instead of three lower() and strpos, and a
        // count that reads only a narrow covering index. A line break in the search could only
        // match across two of them, never inside one: no subject matches it there.
        needle.includes('\n') ? sql<boolean>`false` : sql<boolean>`strpos(f.search_text, ${needle}) > 0`,
        // The study's sites whose code or name holds the text: a few rows, looked up once.
        sql<boolean>`f.site_id in (select sites.id from sites where sites.study_id = ${studyId}
          and (${contains(sql`sites.code`)} or ${contains(sql`sites.name`)}))`,
      ]),
    );
  }
  return query;
}

/** Sorted by the column, empty cells last in either direction, ties by screening number. */
function sorted(query: ListQuery, filter: SubjectListFilter, orders: SortOrders): ListQuery {
  const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
  return query
    .orderBy(sql`${sortExpression(filter.sort, orders)} ${direction} nulls last`)
    .orderBy(sql`f.screening_number collate "C"`)
    .orderBy('f.subject_id');
}

/**
 * How many subjects the filter keeps (the pager's total, the download's row count). A filter on
 * the status and the signature (or none) is answered from the list's totals (`subject_list_totals`,
 * a few rows per site): the list's usual views then count without touching every subject.
 * A search or a period counts the filtered facts rows: a substring or a period ending today can
 * have no stored total. A search and a consent or registration period do it as an index-only scan
 * (the covering index over `search_text`, the date's index), about a millisecond at 5,000 subjects
 * (docs/decisions/subject-fact-totals.md); a period of the visit dates reads the table.
 */
async function countOf(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
  filter: SubjectListFilter,
  today: string,
): Promise<number> {
  const { start, end } = filterPeriod(filter, today);
  if (!start && !end && !filter.search) {
    let totals = db
      .selectFrom('subject_list_totals')
      .select(sql<number>`coalesce(sum(subjects), 0)`.as('total'))
      .where('study_id', '=', studyId);
    if (sites !== 'all') totals = totals.where('site_id', 'in', [...sites]);
    if (filter.status !== 'all') totals = totals.where('status', '=', subjectStatusOfValue[filter.status]);
    if (filter.signature !== 'all') totals = totals.where('signed', '=', filter.signature === 'true');
    return Number((await totals.executeTakeFirstOrThrow()).total);
  }
  const row = await filteredQuery(db, studyId, sites, filter, today)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

function noSubjects(context: ListContext): boolean {
  return context.definition === null || (context.sites !== 'all' && context.sites.size === 0);
}

/**
 * Whether the subject's blind was broken (the list's badge, never the group), read with the page's
 * own statement: one more round trip per page otherwise.
 */
const unblindedFlag =
  sql<boolean>`exists (select 1 from subject_unblindings u where u.subject_id = f.subject_id)`.as(
    'unblinded',
  );

/**
 * One page of the filtered, sorted subjects with the total. A page past the last one is empty and
 * still carries the real total, so the pager can step back to the last page.
 */
export async function listSubjectsPage(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: z.output<typeof subjectListQuerySchema>,
): Promise<SubjectListResponse> {
  const { page, size, ...filter } = query;
  const context = await listContext(db, principal, studyId);
  if (noSubjects(context) || !context.definition) return { subjects: [], total: 0, page, size };
  const { definition } = context;
  const today = todayInKorea();
  const base = filteredQuery(db, studyId, context.sites, filter, today);
  const offset = (page - 1) * size;
  const [rows, count, mayDelete] = await Promise.all([
    sorted(base, filter, context.orders).select(unblindedFlag).limit(size).offset(offset).execute(),
    countOf(db, studyId, context.sites, filter, today),
    deletionAbilities(db, principal, studyId),
  ]);
  return {
    subjects: rows.map((row, index) =>
      presentRow(row, offset + index + 1, definition, context.orders, mayDelete(row), row.unblinded),
    ),
    total: count,
    page,
    size,
  };
}

/** Rows per query of the download: memory stays flat whatever the trial's size. */
const EXPORT_CHUNK = 250;

/**
 * The filtered, sorted subjects without paging (the download), numbered from 1, read a chunk at a
 * time so the file can be streamed. The order is taken once, as subject ids (a few bytes each):
 * paging the sorted query with OFFSET instead sorted every filtered subject again for each chunk.
 */
export async function* allSubjectRows(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: SubjectListFilter,
  context: ListContext,
  today: string,
  chunkSize = EXPORT_CHUNK,
): AsyncGenerator<SubjectListRow[]> {
  if (noSubjects(context) || !context.definition) return;
  const { definition } = context;
  const ordered = await sorted(
    filteredQuery(db, studyId, context.sites, filter, today),
    filter,
    context.orders,
  )
    .clearSelect()
    .select('f.subject_id')
    .execute();
  const ids = ordered.map((row) => row.subject_id);
  const mayDelete = await deletionAbilities(db, principal, studyId);
  for (let start = 0; start < ids.length; start += chunkSize) {
    const chunk = ids.slice(start, start + chunkSize);
    const rows = (await db
      .selectFrom('subject_facts as f')
      .selectAll('f')
      .select(unblindedFlag)
      .where('f.subject_id', 'in', chunk)
      .execute()) as (ListRow & { unblinded: boolean })[];
    const rowOf = new Map(rows.map((row) => [row.subject_id, row]));
    // A subject deleted since the order was taken has no row any more: left out.
    yield chunk.flatMap((subjectId, index) => {
      const row = rowOf.get(subjectId);
      if (!row) return [];
      return [presentRow(row, start + index + 1, definition, context.orders, mayDelete(row), row.unblinded)];
    });
  }
}

/** What the download needs: the study code for the file name, the row count, and the rows. */
export async function subjectDownload(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: SubjectListFilter,
  /** Rows per query (tests take small chunks to cross chunk boundaries). */
  chunkSize = EXPORT_CHUNK,
): Promise<{ studyCode: string; today: string; total: number; chunks: AsyncGenerator<SubjectListRow[]> }> {
  const context = await listContext(db, principal, studyId);
  const today = todayInKorea();
  const total = noSubjects(context) ? 0 : await countOf(db, studyId, context.sites, filter, today);
  return {
    studyCode: context.studyCode,
    today,
    total,
    chunks: allSubjectRows(db, principal, studyId, filter, context, today, chunkSize),
  };
}
