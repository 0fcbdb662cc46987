import type { MissingFormRow, MissingFormsReport, ReportFilter } from '@cdms/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { formLabelOf, nothingInScope, type ReportContext, visitLabelOf } from './report-context.ts';

/**
 * Missing forms (issue 17): the forms the definition expects at each visit a subject has done (its
 * visit date saved) or has let pass (window closed, not done, subject in follow-up) that are empty or
 * incomplete (saved with required items missing: the overview's "dash"), per site, subject and visit,
 * with the days since the visit (or since its window closed). Set-based SQL over `form_instances`,
 * `item_values` and `subject_visit_windows`; the expected (visit, form) pairs come from the definition
 * as a VALUES list, so only the page's rows and a few counts come back.
 */

interface MissingRow {
  site_code: string;
  subject_id: number;
  screening_number: string;
  visit_key: string;
  form_key: string;
  state: 'empty' | 'incomplete';
  due_date: string;
  days: number | string;
}

/** The (visit, form) pairs of scheduled visits (those with a visit date: not consent, not "all"). */
function expectedForms(context: ReportContext): { visitKey: string; formKey: string; order: number }[] {
  const definition = context.definition;
  const dateForm = definition?.visitDate?.form;
  if (!definition || !dateForm) return [];
  const pairs: { visitKey: string; formKey: string; order: number }[] = [];
  for (const visit of definition.visits) {
    if (!visit.forms.includes(dateForm)) continue;
    for (const formKey of visit.forms) pairs.push({ visitKey: visit.key, formKey, order: pairs.length });
  }
  return pairs;
}

/** The missing forms as a CTE chain ending in `missing`; null when nothing can be missing. */
function missingFormsSql(context: ReportContext, filter: ReportFilter): RawBuilder<unknown> | null {
  void filter;
  const expected = expectedForms(context);
  const visitDate = context.definition?.visitDate;
  if (nothingInScope(context) || expected.length === 0 || !visitDate) return null;
  const values = sql.join(
    expected.map((pair) => sql`(${pair.visitKey}::text, ${pair.formKey}::text, ${pair.order}::int)`),
  );
  const sites = sql.join(context.siteIds);
  return sql`with expected(visit_key, form_key, form_order) as (values ${values}),
    visits as (
      select fi.subject_id, fi.visit_key, (iv.value #>> '{}') as due_date
      from form_instances fi
      join subject_facts f on f.subject_id = fi.subject_id
      join item_values iv on iv.form_instance_id = fi.id and iv.item_key = ${visitDate.item}
      where fi.form_key = ${visitDate.form} and fi.has_data
        and f.study_id = ${context.studyId} and f.site_id in (${sites})
        and jsonb_typeof(iv.value) = 'string'
      union all
      select w.subject_id, w.visit_key, w.latest_date::text as due_date
      from subject_visit_windows w
      where w.study_id = ${context.studyId} and w.site_id in (${sites})
        and w.actual_date is null and w.subject_status = 'ongoing' and w.latest_date < ${context.today}::date
    ),
    missing as (
      select s.code as site_code, f.subject_id, f.screening_number, v.visit_key, e.form_key, e.form_order,
        case when fi.id is null or not fi.has_data then 'empty' else 'incomplete' end as state,
        v.due_date,
        greatest(0, ${context.today}::date - v.due_date::date) as days
      from visits v
      join expected e on e.visit_key = v.visit_key
      join subject_facts f on f.subject_id = v.subject_id
      join sites s on s.id = f.site_id
      left join form_instances fi
        on fi.subject_id = v.subject_id and fi.visit_key = v.visit_key and fi.form_key = e.form_key
      where fi.id is null or not fi.has_data or fi.status = 'dash'
    )`;
}

function presentRow(context: ReportContext, row: MissingRow): MissingFormRow {
  return {
    siteCode: row.site_code,
    subjectPk: Number(row.subject_id),
    subjectId: row.screening_number,
    visitKey: row.visit_key,
    visitLabel: visitLabelOf(context.definition, row.visit_key),
    formKey: row.form_key,
    formLabel: formLabelOf(context.definition, row.form_key),
    state: row.state,
    dueDate: row.due_date,
    daysOutstanding: Number(row.days),
  };
}

const ORDER = sql`order by days desc, site_code collate "C", screening_number collate "C", form_order`;

export async function missingFormsReport(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
  page: { page: number; size: number },
): Promise<MissingFormsReport> {
  const base = missingFormsSql(context, filter);
  if (!base) return { report: 'missingForms', total: 0, ...page, rows: [], bySite: [] };
  const [rows, bySite] = await Promise.all([
    sql<MissingRow>`${base} select * from missing ${ORDER}
      limit ${page.size} offset ${(page.page - 1) * page.size}`.execute(db),
    sql<{ site_code: string; empty: number | string; incomplete: number | string }>`${base}
      select site_code, count(*) filter (where state = 'empty') as empty,
        count(*) filter (where state = 'incomplete') as incomplete
      from missing group by site_code order by site_code collate "C"`.execute(db),
  ]);
  const sites = bySite.rows.map((row) => ({
    siteCode: row.site_code,
    empty: Number(row.empty),
    incomplete: Number(row.incomplete),
  }));
  return {
    report: 'missingForms',
    total: sites.reduce((sum, site) => sum + site.empty + site.incomplete, 0),
    ...page,
    rows: rows.rows.map((row) => presentRow(context, row)),
    bySite: sites,
  };
}

const CHUNK = 500;

/** Every missing form, a chunk at a time (the download). */
export async function* allMissingForms(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
): AsyncGenerator<MissingFormRow[]> {
  const base = missingFormsSql(context, filter);
  if (!base) return;
  for (let offset = 0; ; offset += CHUNK) {
    const rows = await sql<MissingRow>`${base} select * from missing ${ORDER}
      limit ${CHUNK} offset ${offset}`.execute(db);
    yield rows.rows.map((row) => presentRow(context, row));
    if (rows.rows.length < CHUNK) return;
  }
}
