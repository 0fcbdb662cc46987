import type { MissingFormRow, MissingFormsReport, ReportFilter } from '@cdms/contract';
import { daysBetween } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { formLabelOf, visitLabelOf } from '../studies/definition-labels.ts';
import { allReportRows, countOf, readListing, type StoredReportRow } from './read-report-rows.ts';
import { nothingInScope, type ReportContext } from './report-context.ts';

/**
 * Missing forms (issue 17): the forms the definition expects at each visit a subject has done (its
 * visit date saved) or has let pass (window closed, not done, subject in follow-up) that are empty or
 * incomplete (saved with required items missing: the overview's "dash"), per site, subject and visit,
 * with the days since the visit (or since its window closed), the longest outstanding first.
 *
 * Each such form is a row the read model stores per subject (`read-model/report-rows.ts`, issue 46),
 * a form of a visit not done counting from the day after its window closes: the page is read in
 * order from an index (due date, site, subject, form) and the counts per site from the totals, so
 * neither grows with the trial. Only "overdue" depends on today, and it is a comparison on the row.
 */

const SELECTION = { report: 'missingForms' } as const;

function presentRow(context: ReportContext, row: StoredReportRow): MissingFormRow {
  const form = row.payload as {
    visitKey: string;
    formKey: string;
    state: 'empty' | 'incomplete';
    dueDate: string;
  };
  return {
    siteCode: row.site_code,
    subjectPk: Number(row.subject_id),
    subjectId: row.screening_number,
    visitKey: form.visitKey,
    visitLabel: visitLabelOf(context.definition, form.visitKey),
    formKey: form.formKey,
    formLabel: formLabelOf(context.definition, form.formKey),
    state: form.state,
    dueDate: form.dueDate,
    daysOutstanding: Math.max(0, daysBetween(form.dueDate, context.today) ?? 0),
  };
}

export async function missingFormsReport(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
  page: { page: number; size: number },
): Promise<MissingFormsReport> {
  void filter;
  if (nothingInScope(context)) return { report: 'missingForms', total: 0, ...page, rows: [], bySite: [] };
  const [{ rows, counts }, sites] = await Promise.all([
    readListing(db, context, SELECTION, page),
    db.selectFrom('sites').select(['id', 'code']).where('id', 'in', context.siteIds).execute(),
  ]);
  // The sites with a missing form, by code.
  const bySite = sites
    .map((site) => ({
      siteCode: site.code,
      empty: countOf(counts, (count) => count.site_id === site.id && count.bucket === 'empty'),
      incomplete: countOf(counts, (count) => count.site_id === site.id && count.bucket === 'incomplete'),
    }))
    .filter((site) => site.empty + site.incomplete > 0)
    .sort((a, b) => (a.siteCode < b.siteCode ? -1 : a.siteCode > b.siteCode ? 1 : 0));
  return {
    report: 'missingForms',
    total: countOf(counts),
    ...page,
    rows: rows.map((row) => presentRow(context, row)),
    bySite,
  };
}

/** Every missing form, a chunk at a time (the download). */
export async function* allMissingForms(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
): AsyncGenerator<MissingFormRow[]> {
  void filter;
  if (nothingInScope(context)) return;
  for await (const rows of allReportRows(db, context, SELECTION))
    yield rows.map((row) => presentRow(context, row));
}
