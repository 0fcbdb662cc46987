import type { ReviewState } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SiteScope } from '../auth/permissions.ts';
import type { Database } from '../db/schema.ts';
import type { FormTable } from '../form-tables/table-layout.ts';
import { AppError } from '../http/errors.ts';

/**
 * The one statement behind a review listing's page, its count and its export: the form's instances
 * with data of the reader's subjects (deleted ones never), one row per instance — or, for a
 * repeating group's listing, one per element of the group's stored array (`jsonb_array_elements …
 * with ordinality`: the same rows form-tables/ writes) — with the review mark of that listing and
 * its state computed here: the mark's version against the instance's version now. Filters, sort,
 * page and count all run in SQL; only a page of rows ever comes back.
 */

export interface ReviewListingFilter {
  studyId: number;
  table: FormTable;
  scope: SiteScope;
  visitKey?: string;
  review?: ReviewState;
  search?: string;
  sort: string;
  dir: 'asc' | 'desc';
}

export interface ReviewListingSqlRow {
  form_instance_id: number;
  subject_id: number;
  screening_number: string;
  site_id: number;
  visit_key: string;
  status: string;
  version: number;
  saved_at: Date | string;
  /** 1-based element of the group's array (SQL's ordinality); null for plain items. */
  ord: number | string | null;
  /** The group's row object; null for plain items. */
  cell: unknown;
  reviewed_version: number | null;
  reviewed_at: Date | string | null;
  reviewer: string | null;
}

const ITEM_SORT = /^item:([A-Za-z][A-Za-z0-9_]*)$/;

/** Escapes LIKE's wildcards so a search for `01_` finds that text. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The visits' order: the schedule, then unscheduled visits by their repeat key, then anything else. */
function visitOrder(definition: StudyDefinition): RawBuilder<number> {
  const keys = definition.visits.map((visit) => visit.key);
  const scheduled = sql<number>`array_position(${sql.val(keys)}::text[], fi.visit_key)`;
  return sql<number>`coalesce(${scheduled}, case when fi.visit_key ~ '^unscheduled-[0-9]{1,9}$'
    then ${keys.length} + substring(fi.visit_key from 13)::int else 2000000000 end)`;
}

/** `from … where …` of the listing: the joins, the scope and the filters. */
function fromAndWhere(filter: ReviewListingFilter): RawBuilder<unknown> {
  const { table, scope } = filter;
  const conditions: RawBuilder<unknown>[] = [
    sql`fi.form_key = ${table.formKey}`,
    sql`fi.has_data`,
    sql`s.study_id = ${filter.studyId}`,
    sql`s.deleted_at is null`,
  ];
  if (scope !== 'all') {
    // An empty scope selects nothing, as it says.
    conditions.push(scope.size === 0 ? sql`false` : sql`s.site_id in (${sql.join([...scope])})`);
  }
  if (filter.visitKey !== undefined) conditions.push(sql`fi.visit_key = ${filter.visitKey}`);
  if (filter.search) conditions.push(sql`lower(s.screening_number) like ${likePattern(filter.search)}`);
  if (filter.review === 'not_reviewed') conditions.push(sql`rm.form_instance_id is null`);
  if (filter.review === 'reviewed') conditions.push(sql`rm.reviewed_version = fi.version`);
  if (filter.review === 'changed') conditions.push(sql`rm.reviewed_version <> fi.version`);
  // A repeating group's rows: each element of its stored array (a value that is not an array has none).
  const groupRows =
    table.groupKey === null
      ? sql``
      : sql`join item_values g on g.form_instance_id = fi.id and g.item_key = ${table.groupKey}
          cross join lateral jsonb_array_elements(
            case when jsonb_typeof(g.value) = 'array' then g.value else '[]'::jsonb end
          ) with ordinality as r(cell, ord)`;
  return sql`from form_instances fi
    join subjects s on s.id = fi.subject_id
    ${groupRows}
    left join review_marks rm on rm.form_instance_id = fi.id and rm.listing = ${table.name}
    where ${sql.join(conditions, sql` and `)}`;
}

/** `order by …`: the chosen column, then subject, visit and row so every page is stable. */
function orderBy(definition: StudyDefinition, filter: ReviewListingFilter): RawBuilder<unknown> {
  const dir = filter.dir === 'desc' ? sql`desc` : sql`asc`;
  const nulls = filter.dir === 'desc' ? sql`nulls first` : sql`nulls last`;
  const visit = visitOrder(definition);
  const row = filter.table.groupKey === null ? sql`` : sql`, r.ord`;
  const tail = sql`s.screening_number, ${visit}, fi.visit_key, fi.id${row}`;
  if (filter.sort === 'subject')
    return sql`order by s.screening_number ${dir}, ${visit}, fi.visit_key, fi.id${row}`;
  if (filter.sort === 'visit') return sql`order by ${visit} ${dir}, fi.visit_key ${dir}, ${tail}`;
  if (filter.sort === 'savedAt') return sql`order by fi.saved_at ${dir}, ${tail}`;
  const itemKey = ITEM_SORT.exec(filter.sort)?.[1];
  if (!itemKey || !filter.table.columns.some((column) => column.item.key === itemKey))
    throw new AppError(422, 'review_sort_unknown');
  // jsonb orders numbers as numbers and texts as texts, the stored value as it is.
  const value =
    filter.table.groupKey === null
      ? sql`(select iv.value from item_values iv where iv.form_instance_id = fi.id and iv.item_key = ${itemKey})`
      : sql`(r.cell -> ${itemKey})`;
  return sql`order by ${value} ${dir} ${nulls}, ${tail}`;
}

/** One page of the listing's rows, in its order. */
export async function readListingRows(
  db: Kysely<Database>,
  definition: StudyDefinition,
  filter: ReviewListingFilter,
  page: { limit: number; offset: number },
): Promise<ReviewListingSqlRow[]> {
  const group =
    filter.table.groupKey === null ? sql`null::bigint as ord, null::jsonb as cell` : sql`r.ord, r.cell`;
  const { rows } = await sql<ReviewListingSqlRow>`
    select fi.id as form_instance_id, s.id as subject_id, s.screening_number, s.site_id, fi.visit_key,
      fi.status, fi.version, fi.saved_at, ${group},
      rm.reviewed_version, rm.reviewed_at,
      (select u.name from users u where u.id = rm.reviewed_by) as reviewer
    ${fromAndWhere(filter)}
    ${orderBy(definition, filter)}
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return rows;
}

/** How many rows the listing has under its filters. */
export async function countListingRows(db: Kysely<Database>, filter: ReviewListingFilter): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`
    select count(*) as count ${fromAndWhere(filter)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** The stored values of a page's plain-item rows: form instance → item key → value. */
export async function plainValuesOf(
  db: Kysely<Database>,
  formInstanceIds: number[],
  itemKeys: string[],
): Promise<Map<number, Record<string, unknown>>> {
  const byInstance = new Map<number, Record<string, unknown>>();
  if (formInstanceIds.length === 0 || itemKeys.length === 0) return byInstance;
  const values = await db
    .selectFrom('item_values')
    .select(['form_instance_id', 'item_key', 'value'])
    .where('form_instance_id', 'in', formInstanceIds)
    .where('item_key', 'in', itemKeys)
    .execute();
  for (const row of values) {
    const values = byInstance.get(row.form_instance_id) ?? {};
    values[row.item_key] = row.value;
    byInstance.set(row.form_instance_id, values);
  }
  return byInstance;
}

/** The review state of a row: no mark, the version it was marked at, or a version that moved on. */
export function reviewStateOf(row: Pick<ReviewListingSqlRow, 'reviewed_version' | 'version'>): ReviewState {
  if (row.reviewed_version === null) return 'not_reviewed';
  return row.reviewed_version === row.version ? 'reviewed' : 'changed';
}
