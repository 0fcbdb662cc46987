import type { SaeReport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { notifySaeAcknowledged } from '../sae-state/sae-notifications.ts';
import { findSaeReportInScope, lockSaeReportForChange, saeAuditScope, saeNoticeOf } from './sae-access.ts';
import { presentSaeReport } from './sae-presenter.ts';

/**
 * The sponsor's safety desk acknowledges receipt of the submitted version (`sae.acknowledge`: SAFETY);
 * 409 when the current version is a draft or acknowledged already. Audited; the site is notified.
 */
export async function acknowledgeSaeReport(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; reportId: number; rowVersion: number },
): Promise<SaeReport> {
  await findSaeReportInScope(db, principal, input.studyId, input.reportId, 'sae.acknowledge');
  return inTransaction(db, async (trx) => {
    const report = await lockSaeReportForChange(trx, principal, input, 'sae.acknowledge');
    const now = new Date();
    const acknowledged = await trx
      .updateTable('sae_report_versions')
      .set({
        acknowledged_by: principal.user.id,
        acknowledged_name: principal.user.name,
        acknowledged_at: now,
      })
      .where('report_id', '=', report.id)
      .where('version', '=', report.current_version)
      .where('submitted_at', 'is not', null)
      .where('acknowledged_at', 'is', null)
      .returning('version')
      .executeTakeFirst();
    if (!acknowledged) throw new AppError(409, 'sae_state_conflict');
    const updated = await trx
      .updateTable('sae_reports')
      .set({ status: 'acknowledged', row_version: report.row_version + 1 })
      .where('id', '=', report.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'sae.acknowledged',
      ...saeAuditScope(report),
      before: { status: report.status },
      after: { status: 'acknowledged', version: report.current_version, acknowledgedAt: now.toISOString() },
    });
    await notifySaeAcknowledged(trx, saeNoticeOf(report, report.current_version));
    return presentSaeReport(trx, principal, { ...report, ...updated }, now);
  });
}
