import type { SaeReport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { dueAtOf } from '../sae-state/sae-clock.ts';
import { findSaeReportInScope, lockSaeReportForChange, saeAuditScope } from './sae-access.ts';
import { presentSaeReport } from './sae-presenter.ts';

/**
 * The site corrects when it learned of the event (the save's time by default), with a reason: the
 * due time moves with it. Only before the first submission (the clock it sets is then over); not in
 * the future. Audited before and after.
 */
export async function changeSaeAwareness(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; reportId: number; rowVersion: number; awarenessAt: string; reason: string },
): Promise<SaeReport> {
  await findSaeReportInScope(db, principal, input.studyId, input.reportId, 'sae.report');
  const awarenessAt = new Date(input.awarenessAt);
  const now = new Date();
  if (Number.isNaN(awarenessAt.getTime()) || awarenessAt.getTime() > now.getTime())
    throw new AppError(422, 'sae_awareness_invalid');
  return inTransaction(db, async (trx) => {
    const report = await lockSaeReportForChange(trx, principal, input, 'sae.report');
    if (report.first_submitted_at !== null) throw new AppError(409, 'sae_state_conflict');
    const dueAt = dueAtOf(awarenessAt);
    const updated = await trx
      .updateTable('sae_reports')
      .set({ awareness_at: awarenessAt, due_at: dueAt, row_version: report.row_version + 1 })
      .where('id', '=', report.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'sae.awareness_changed',
      ...saeAuditScope(report),
      before: { awarenessAt: report.awareness_at.toISOString(), dueAt: report.due_at.toISOString() },
      after: { awarenessAt: awarenessAt.toISOString(), dueAt: dueAt.toISOString() },
      reason: input.reason,
    });
    return presentSaeReport(trx, principal, { ...report, ...updated }, now);
  });
}
