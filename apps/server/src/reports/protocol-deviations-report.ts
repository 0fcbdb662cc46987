import type { ProtocolDeviationRow, ProtocolDeviationsReport, ReportFilter } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deviationKindsOf } from '../read-model/report-rows.ts';
import { visitLabelOf } from '../studies/definition-labels.ts';
import { allReportRows, countOf, readListing, type StoredReportRow } from './read-report-rows.ts';
import { nothingInScope, type ReportContext } from './report-context.ts';

/**
 * Protocol deviations (issue 17), four kinds:
 * - outOfWindow: a visit done before or after its window (`subject_visit_windows`), in days;
 * - eligibleWhileCriterionFails: the eligibility evaluation says "eligible" while an inclusion
 *   criterion is answered "no" or an exclusion criterion "yes" (the criteria are the items of the
 *   form's inclusion and exclusion sections);
 * - treatmentOffVisitDate: the investigational treatment's date differs from the date of the visit it
 *   is applied at (the `treatmentApplication` role);
 * - missingPregnancyTest: a woman (demographics) at a visit done whose pregnancy test form is not
 *   saved, does not say whether she can bear children, or says she can and has no result.
 * The last three are found where a subject's forms are saved (`subjects/visit-facts.ts`); every kind's
 * rows are stored per subject by the read model (`read-model/report-rows.ts`, issue 46), so the page
 * is read in order from an index (site, subject, visit, kind) and the counts per kind from the totals:
 * neither grows with the trial.
 */

/** The kinds the filter lists: one, or every kind the study can have. */
function kindsOf(context: ReportContext, filter: ReportFilter): ProtocolDeviationRow['kind'][] {
  const studyKinds = deviationKindsOf(context.definition);
  return filter.deviation === 'all' ? studyKinds : studyKinds.filter((kind) => kind === filter.deviation);
}

/** The stored rows the filter lists: all of them, or one kind's. */
function deviationsSelection(context: ReportContext, filter: ReportFilter) {
  const kinds = kindsOf(context, filter);
  return { report: 'protocolDeviations', ...(filter.deviation === 'all' ? {} : { buckets: kinds }) } as const;
}

function presentRow(context: ReportContext, row: StoredReportRow): ProtocolDeviationRow {
  const deviation = row.payload as {
    kind: ProtocolDeviationRow['kind'];
    visitKey: string;
    date: string | null;
    days: number | null;
    detailKo: string;
    detailEn: string;
  };
  return {
    siteCode: row.site_code,
    subjectPk: Number(row.subject_id),
    subjectId: row.screening_number,
    kind: deviation.kind,
    visitKey: deviation.visitKey,
    visitLabel: visitLabelOf(context.definition, deviation.visitKey),
    date: deviation.date,
    days: deviation.days === null ? null : Number(deviation.days),
    detail: { ko: deviation.detailKo, en: deviation.detailEn },
  };
}

export async function protocolDeviationsReport(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
  page: { page: number; size: number },
): Promise<ProtocolDeviationsReport> {
  const byKind = (countOfKind: (kind: ProtocolDeviationRow['kind']) => number) =>
    deviationKindsOf(context.definition).map((kind) => ({ kind, count: countOfKind(kind) }));
  const kinds = kindsOf(context, filter);
  if (nothingInScope(context) || !context.definition?.visitDate || kinds.length === 0)
    return { report: 'protocolDeviations', total: 0, ...page, rows: [], byKind: byKind(() => 0) };
  const selection = deviationsSelection(context, filter);
  const { rows, counts } = await readListing(db, context, selection, page);
  return {
    report: 'protocolDeviations',
    total: countOf(counts),
    ...page,
    rows: rows.map((row) => presentRow(context, row)),
    byKind: byKind((kind) => countOf(counts, (count) => count.bucket === kind)),
  };
}

export async function* allProtocolDeviations(
  db: Kysely<Database>,
  context: ReportContext,
  filter: ReportFilter,
): AsyncGenerator<ProtocolDeviationRow[]> {
  if (nothingInScope(context) || !context.definition?.visitDate || kindsOf(context, filter).length === 0)
    return;
  for await (const rows of allReportRows(db, context, deviationsSelection(context, filter)))
    yield rows.map((row) => presentRow(context, row));
}
