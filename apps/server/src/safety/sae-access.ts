import type { Action } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { refuseUntrainedWriter } from '../training-gate/training-gate.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The report's row with its subject and site, as every step reads it. */
export function saeReportQuery(db: Executor, studyId: number) {
  return db
    .selectFrom('sae_reports as r')
    .innerJoin('subjects as s', 's.id', 'r.subject_id')
    .innerJoin('sites as site', 'site.id', 'r.site_id')
    .selectAll('r')
    .select(['s.screening_number', 'site.name as site_name'])
    .where('r.study_id', '=', studyId)
    .where('s.deleted_at', 'is', null);
}

export type SaeReportRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof saeReportQuery>['executeTakeFirst']>>
>;

/**
 * The report, if the caller may read it (`sae.read` at its site); otherwise 404, so a report of another
 * site is indistinguishable from none. With `action`, 403 when the caller may read but not do it, and
 * the training gate for the site's writes. `forUpdate` locks the row (inside the step's transaction).
 */
export async function findSaeReportInScope(
  db: Executor,
  principal: Principal,
  studyId: number,
  reportId: number,
  action: Action = 'sae.read',
  options: { forUpdate?: boolean } = {},
): Promise<SaeReportRow> {
  let query = saeReportQuery(db, studyId).where('r.id', '=', reportId);
  if (options.forUpdate) query = query.forUpdate(['r']);
  const report = await query.executeTakeFirst();
  if (!report || !can(principal, 'sae.read', { studyId, siteId: report.site_id }))
    throw new AppError(404, 'not_found');
  if (action !== 'sae.read' && !can(principal, action, { studyId, siteId: report.site_id }))
    throw new AppError(403, 'forbidden');
  await refuseUntrainedWriter(db, principal, studyId, action);
  return report;
}

/**
 * The opening of every step that changes a report, inside its transaction: the report under its row
 * lock, the caller's rights on it, and the caller's copy checked against the stored one.
 */
export async function lockSaeReportForChange(
  trx: Transaction<Database>,
  principal: Principal,
  input: { studyId: number; reportId: number; rowVersion: number },
  action: Action,
): Promise<SaeReportRow> {
  const report = await findSaeReportInScope(trx, principal, input.studyId, input.reportId, action, {
    forUpdate: true,
  });
  refuseStaleReport(report, input.rowVersion);
  return report;
}

/** 409 unless the caller's copy is the stored one (the report's optimistic lock). */
export function refuseStaleReport(report: { row_version: number }, rowVersion: number): void {
  if (report.row_version !== rowVersion) throw new AppError(409, 'sae_version_conflict');
}

/** The report's subject, for the audit records of its steps. */
export function saeAuditScope(report: SaeReportRow) {
  return {
    entityType: 'sae_report' as const,
    entityId: report.id,
    studyId: report.study_id,
    siteId: report.site_id,
    subjectId: report.subject_id,
  };
}

export function saeNoticeOf(report: SaeReportRow, version: number) {
  return {
    reportId: report.id,
    studyId: report.study_id,
    siteId: report.site_id,
    screeningNumber: report.screening_number,
    eventNumber: report.event_number,
    version,
    dueAt: report.due_at,
  };
}
