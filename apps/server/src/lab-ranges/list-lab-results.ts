import type { LabResultRow, LabResultsQuery, LabResultsResponse } from '@cdms/contract';
import { LAB_FORM_KEY, LAB_SPECIMEN_DATE_ITEM, numericLabTests, type StudyDefinition } from '@cdms/study';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { siteScope } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type Filters = {
  siteId?: number | undefined;
  subject?: string | undefined;
  testKey?: string | undefined;
  flag: NonNullable<LabResultsQuery['flag']>;
  page: number;
  size: number;
};

interface ResultRow {
  subject_pk: number;
  subject_id: string;
  site_id: number;
  site: string;
  visit_key: string;
  test_key: string;
  specimen_date: string | null;
  value: number;
  unit: string | null;
  low: number | null;
  high: number | null;
  flag: 'H' | 'L' | 'N' | null;
  normal: string | null;
  significance: string | null;
  open_query_count: number | string;
}

type ListedSql = RawBuilder<unknown>;

/**
 * The labTest results of the reader's sites that are outside the site's normal range or judged
 * clinically significant (CS), flagged and filtered in SQL, as a CTE chain ending in `listed`; null
 * when nothing can be listed. The range applied to each result is chosen as `applicableLabRanges`
 * chooses it (newest in force on the specimen date, sex and age from the read model, a sex limit
 * first) and the flag follows `flagLabResult` (a limit is normal).
 */
function labResultsSql(
  principal: Principal,
  studyId: number,
  definition: StudyDefinition,
  filters: Omit<Filters, 'page' | 'size'>,
): { listed: ListedSql; order: ListedSql } | null {
  if (!principal.studies.has(studyId)) throw new AppError(404, 'not_found');
  const sites = siteScope(principal, 'subject.read', studyId);
  if (sites !== 'all' && sites.size === 0) return null;
  const tests = numericLabTests(definition).filter(
    (test) => filters.testKey === undefined || test.testKey === filters.testKey,
  );
  if (tests.length === 0) return null;
  const resultItems = sql.join(tests.map((test) => sql`${test.resultItem}`));

  const conditions = [sql`s.study_id = ${studyId}`];
  if (sites !== 'all') conditions.push(sql`s.site_id in (${sql.join([...sites])})`);
  if (filters.siteId !== undefined) conditions.push(sql`s.site_id = ${filters.siteId}`);
  if (filters.subject)
    conditions.push(sql`strpos(lower(s.screening_number), ${filters.subject.toLowerCase()}) > 0`);

  const listed = sql`
    with results as (
      select s.id as subject_pk, s.screening_number as subject_id, s.site_id, sites.code as site,
        fi.visit_key, iv.item_key,
        substr(iv.item_key, 1, length(iv.item_key) - 6) as test_key,
        (iv.value #>> '{}')::double precision as value,
        sd.value #>> '{}' as specimen_date,
        nv.value #>> '{}' as normal,
        sv.value #>> '{}' as significance,
        sf.gender, sf.age
      from form_instances fi
      join subjects s on s.id = fi.subject_id and s.deleted_at is null
      join sites on sites.id = s.site_id
      join item_values iv on iv.form_instance_id = fi.id and iv.item_key in (${resultItems})
        and jsonb_typeof(iv.value) = 'number'
      left join item_values sd on sd.form_instance_id = fi.id and sd.item_key = ${LAB_SPECIMEN_DATE_ITEM}
      left join item_values nv on nv.form_instance_id = fi.id
        and nv.item_key = substr(iv.item_key, 1, length(iv.item_key) - 6) || 'Normal'
      left join item_values sv on sv.form_instance_id = fi.id
        and sv.item_key = substr(iv.item_key, 1, length(iv.item_key) - 6) || 'Significance'
      left join subject_facts sf on sf.subject_id = s.id
      where fi.form_key = ${LAB_FORM_KEY} and fi.has_data and ${sql.join(conditions, sql` and `)}
    ),
    flagged as (
      select r.*, lr.unit, lr.low, lr.high,
        case when lr.id is null then null
          when lr.high is not null and r.value > lr.high then 'H'
          when lr.low is not null and r.value < lr.low then 'L'
          else 'N' end as flag
      from results r
      left join lateral (
        select id, unit, low, high from lab_ranges
        where site_id = r.site_id and test_key = r.test_key and retired_at is null
          and r.specimen_date is not null and effective_from <= r.specimen_date::date
          and (sex is null or sex = r.gender)
          and (age_min is null or age_min <= r.age) and (age_max is null or age_max >= r.age)
        order by effective_from desc, (sex is null), id desc
        limit 1
      ) lr on true
    ),
    listed as (
      select * from flagged
      where ${
        filters.flag === 'all'
          ? sql`(flag in ('H', 'L') or significance = 'CS')`
          : filters.flag === 'CS'
            ? sql`significance = 'CS'`
            : sql`flag = ${filters.flag}`
      }
    )`;
  // Site, subject, visit, then the tests in form order: one place per row, so chunks never overlap.
  const testOrder = sql.join(tests.map((test) => sql`${test.resultItem}`));
  const order = sql`order by site, subject_id, visit_key, array_position(array[${testOrder}]::text[], item_key)`;
  return { listed, order };
}

/** One page of rows with their open-query counts, in the listing's order. */
function pageOf(
  db: Kysely<Database>,
  query: { listed: ListedSql; order: ListedSql },
  limit: number,
  offset: number,
) {
  return sql<ResultRow>`${query.listed}
    select listed.*,
      (select count(*) from queries q where q.subject_id = listed.subject_pk and q.visit_key = listed.visit_key
        and q.form_key = ${LAB_FORM_KEY} and q.item_path = listed.visit_key || '.' || ${LAB_FORM_KEY} || '.' || listed.item_key
        and q.status in ('open', 'answered')) as open_query_count
    from listed
    ${query.order}
    limit ${limit} offset ${offset}`.execute(db);
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
  const query = labResultsSql(principal, studyId, definition, filters);
  if (!query) return empty;
  const [counted, page] = await Promise.all([
    sql<{ total: number | string }>`${query.listed} select count(*) as total from listed`.execute(db),
    pageOf(db, query, filters.size, (filters.page - 1) * filters.size),
  ]);
  const total = Number(counted.rows[0]?.total ?? 0);
  return { results: page.rows.map(presentRow), total, page: filters.page, size: filters.size };
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
  const query = labResultsSql(principal, studyId, definition, filters);
  if (!query) return;
  for (let offset = 0; ; offset += CHUNK) {
    const rows = await pageOf(db, query, CHUNK, offset);
    yield rows.rows.map(presentRow);
    if (rows.rows.length < CHUNK) return;
  }
}

function presentRow(row: ResultRow): LabResultRow {
  return {
    subjectPk: row.subject_pk,
    subjectId: row.subject_id,
    siteId: row.site_id,
    site: row.site,
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
