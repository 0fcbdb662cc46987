import type { SaeReport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findSaeReportInScope, lockSaeReportForChange, saeAuditScope } from './sae-access.ts';
import { presentSaeReport } from './sae-presenter.ts';

/**
 * The site starts a follow-up report (`sae.report`): a new version, a draft holding a copy of the last
 * submitted content, once the current version is submitted. The report is a draft again until the PI
 * submits the follow-up; its first clock (the initial report's) is over and stays so.
 */
export async function startSaeFollowUp(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; reportId: number; rowVersion: number },
): Promise<SaeReport> {
  await findSaeReportInScope(db, principal, input.studyId, input.reportId, 'sae.report');
  return inTransaction(db, async (trx) => {
    const report = await lockSaeReportForChange(trx, principal, input, 'sae.report');
    const last = await trx
      .selectFrom('sae_report_versions')
      .select(['content', 'submitted_at'])
      .where('report_id', '=', report.id)
      .where('version', '=', report.current_version)
      .executeTakeFirstOrThrow();
    if (last.submitted_at === null) throw new AppError(409, 'sae_state_conflict');
    const now = new Date();
    const version = report.current_version + 1;
    await trx
      .insertInto('sae_report_versions')
      .values({
        report_id: report.id,
        version,
        content: JSON.stringify(last.content),
        saved_by: principal.user.id,
        saved_at: now,
      })
      .execute();
    const updated = await trx
      .updateTable('sae_reports')
      .set({ status: 'draft', current_version: version, row_version: report.row_version + 1 })
      .where('id', '=', report.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'sae.follow_up_started',
      ...saeAuditScope(report),
      before: { status: report.status, version: report.current_version },
      after: { status: 'draft', version },
    });
    return presentSaeReport(trx, principal, { ...report, ...updated }, now);
  });
}
