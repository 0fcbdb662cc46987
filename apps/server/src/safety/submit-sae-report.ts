import { SAE_SIGNATURE_MEANING, type SaeReport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { isOverdue } from '../sae-state/sae-clock.ts';
import { notifySaeSubmitted } from '../sae-state/sae-notifications.ts';
import { verifySigningCredentials } from '../signature-state/verify-signing-credentials.ts';
import {
  findSaeReportInScope,
  lockSaeReportForChange,
  refuseStaleReport,
  saeAuditScope,
  saeNoticeOf,
} from './sae-access.ts';
import { presentSaeReport } from './sae-presenter.ts';

export interface SubmitSaeReportInput {
  studyId: number;
  reportId: number;
  rowVersion: number;
  password: string;
  code?: string | undefined;
}

/**
 * The site's PI submits the report's current version to the sponsor with an electronic signature
 * (21 CFR 11.50, 11.200): their password entered again, checked like the casebook signature's
 * (`verifySigningCredentials`: a wrong one is audited in a transaction of its own, counted, 422, and
 * changes nothing). In one transaction: the version signed (signer's printed name, time, meaning), the
 * report submitted, the audit record, the safety desk's notification.
 */
export async function submitSaeReport(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: SubmitSaeReportInput,
): Promise<SaeReport> {
  const found = await findSaeReportInScope(db, principal, input.studyId, input.reportId, 'sae.submit');
  refuseStaleReport(found, input.rowVersion);
  const user = principal.user;
  await verifySigningCredentials(db, user, input, new Date(), (failure) =>
    recordAudit(db, actor, { type: 'sae.signature_failed', ...saeAuditScope(found), after: failure }),
  );
  return inTransaction(db, async (trx) => {
    const report = await lockSaeReportForChange(trx, principal, input, 'sae.submit');
    const now = new Date();
    const signed = await trx
      .updateTable('sae_report_versions')
      .set({
        submitted_by: user.id,
        submitted_name: user.name,
        submitted_at: now,
        signature_meaning: JSON.stringify(SAE_SIGNATURE_MEANING),
      })
      .where('report_id', '=', report.id)
      .where('version', '=', report.current_version)
      .where('submitted_at', 'is', null)
      .returning('version')
      .executeTakeFirst();
    if (!signed) throw new AppError(409, 'sae_state_conflict');
    const late = isOverdue(report, now);
    const updated = await trx
      .updateTable('sae_reports')
      .set({
        status: 'submitted',
        first_submitted_at: report.first_submitted_at ?? now,
        row_version: report.row_version + 1,
      })
      .where('id', '=', report.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'sae.submitted',
      ...saeAuditScope(report),
      before: { status: report.status },
      after: {
        status: 'submitted',
        version: report.current_version,
        printedName: user.name,
        submittedAt: now.toISOString(),
        meaning: SAE_SIGNATURE_MEANING,
        dueAt: report.due_at.toISOString(),
        overdue: late,
      },
    });
    await notifySaeSubmitted(trx, saeNoticeOf(report, report.current_version));
    return presentSaeReport(trx, principal, { ...report, ...updated }, now);
  });
}
