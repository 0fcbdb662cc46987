import type { LabResultRow, LabResultsQuery, LabResultsResponse } from '@cdms/contract';
import { numericLabTests, type StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import { siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, LabResultsTable } from '../db/schema.ts';

type Filters = {
  siteId?: number | undefined;
  subject?: string | undefined;
  testKey?: string | undefined;
  flag: NonNullable<LabResultsQuery['flag']>;
  page: number;
  size: number;
};

/** A listed row: the read model's columns, with the page's total and the result's open queries. */
type ResultRow = Pick<
  LabResultsTable,
  | 'screening_number'
  | 'site_id'
  | 'site_code'
  | 'visit_key'
  | 'test_key'
  | 'specimen_date'
  | 'value'
  | 'unit'
  | 'low'
  | 'high'
  | 'flag'
  | 'normal'
  | 'significance'
> & { total: number | string; subject_id: number | null; open_query_count: number | string };

/**
 * The filter of the listing over the read model's `lab_results` (issue 43 item 13): the reader's
 * sites' results out of range or judged clinically significant (CS) — the predicate of the partial
 * index `lab_results_listed_idx`, always part of the filter so the index serves every flag filter —
 * narrowed by site, screening number, test and flag. The flags are stored: set by the save and by
 * range changes (`reflag-lab-results.ts`) as the contract's `flagLabResult` decides them against the
 * range in force on the specimen date (`chooseLabRanges`). Null when nothing can be listed.
 */
function listedWhere(
  principal: Principal,
  studyId: number,
  definition: StudyDefinition,
  filters: Omit<Filters, 'page' | 'size'>,
): RawBuilder<unknown> | null {
  authorize(principal, 'member', { studyId });
  const sites = siteScope(principal, 'subject.read', studyId);
  if (sites !== 'all' && sites.size === 0) return null;
  const tests = numericLabTests(definition);
  if (filters.testKey !== undefined && !tests.some((test) => test.testKey === filters.testKey)) return null;
  const conditions = [sql`lr.study_id = ${studyId}`, sql`(lr.flag in ('H', 'L') or lr.significance = 'CS')`];
  if (sites !== 'all') conditions.push(sql`lr.site_id in (${sql.join([...sites])})`);
  if (filters.siteId !== undefined) conditions.push(sql`lr.site_id = ${filters.siteId}`);
  if (filters.subject)
    conditions.push(sql`strpos(lower(lr.screening_number), ${filters.subject.toLowerCase()}) > 0`);
  if (filters.testKey !== undefined) conditions.push(sql`lr.test_key = ${filters.testKey}`);
  if (filters.flag === 'CS') conditions.push(sql`lr.significance = 'CS'`);
  else if (filters.flag !== 'all') conditions.push(sql`lr.flag = ${filters.flag}`);
  return sql.join(conditions, sql` and `);
}

/**
 * One page of the listing and the count of all its rows, in one statement, both from the partial
 * index of the listed rows: the count from the index alone (its columns include every filter's), the
 * page by walking the index in the listing's order — site, subject, visit, then the tests in form
 * order (one place per row, so chunks never overlap) — and stopping after it, with the open and
 * answered queries of the page's rows only. A page past the end is not looked for (the count says
 * so) and still has its count: the count's row, with no page row beside it.
 */
async function pageOf(
  db: Kysely<Database>,
  labForm: string,
  where: RawBuilder<unknown>,
  limit: number,
  offset: number,
) {
  const rows = await sql<ResultRow>`
    select counted.total, page.*
    from (select count(*) as total from lab_results lr where ${where}) counted
    left join lateral (
      select lr.*,
        (select count(*) from queries q where q.subject_id = lr.subject_id and q.visit_key = lr.visit_key
          and q.form_key = ${labForm}
          and q.item_path = lr.visit_key || '.' || ${labForm} || '.' || lr.result_item
          and q.status in ('open', 'answered')) as open_query_count
      from lab_results lr
      where ${where} and counted.total > ${offset}
      order by lr.study_id, lr.site_code, lr.screening_number, lr.visit_key, lr.test_order
      limit ${limit} offset ${offset}
    ) page on true
    order by page.site_code, page.screening_number, page.visit_key, page.test_order`.execute(db);
  const total = Number(rows.rows[0]?.total ?? 0);
  return { total, rows: rows.rows.filter((row) => row.subject_id !== null) };
}

/** The listing's page and count (the lab page). */
export async function listLabResults(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  definition: StudyDefinition,
  filters: Filters,
): Promise<LabResultsResponse> {
  const empty = { results: [], total: 0, page: filters.page, size: filters.size };
  const where = listedWhere(principal, studyId, definition, filters);
  // A study without a lab panel has no results to list.
  const labForm = definition.roles?.labPanel?.form;
  if (!where || labForm === undefined) return empty;
  const page = await pageOf(db, labForm, where, filters.size, (filters.page - 1) * filters.size);
  return { results: page.rows.map(presentRow), total: page.total, page: filters.page, size: filters.size };
}

const CHUNK = 500;

/** Every row of the listing under the filters, a chunk at a time (the download). */
export async function* allLabResults(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  definition: StudyDefinition,
  filters: Omit<Filters, 'page' | 'size'>,
): AsyncGenerator<LabResultRow[]> {
  const where = listedWhere(principal, studyId, definition, filters);
  const labForm = definition.roles?.labPanel?.form;
  if (!where || labForm === undefined) return;
  for (let offset = 0; ; offset += CHUNK) {
    const page = await pageOf(db, labForm, where, CHUNK, offset);
    yield page.rows.map(presentRow);
    if (page.rows.length < CHUNK) return;
  }
}

function presentRow(row: ResultRow): LabResultRow {
  return {
    subjectPk: row.subject_id as number,
    subjectId: row.screening_number,
    siteId: row.site_id,
    site: row.site_code,
    visitKey: row.visit_key,
    testKey: row.test_key,
    specimenDate: row.specimen_date,
    value: Number(row.value),
    unit: row.unit,
    low: row.low,
    high: row.high,
    flag: row.flag,
    normal: row.normal,
    significance: row.significance,
    openQueryCount: Number(row.open_query_count),
  };
}
