import type { SaeContent, SaeReport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findSaeReportInScope, lockSaeReportForChange, saeAuditScope } from './sae-access.ts';
import { contentOf, presentSaeReport } from './sae-presenter.ts';

/** The content fields that differ between two versions' contents (the audit record keeps only those). */
function changedFields(before: SaeContent, after: SaeContent): (keyof SaeContent)[] {
  return (Object.keys(after) as (keyof SaeContent)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

/**
 * The site saves the report's current draft version (`sae.report`: PI, SI, CRC of its site): refused
 * with 409 when the version was submitted already or someone saved first. Audited with the fields
 * that changed, before and after.
 */
export async function saveSaeDraft(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; reportId: number; rowVersion: number; content: SaeContent },
): Promise<SaeReport> {
  await findSaeReportInScope(db, principal, input.studyId, input.reportId, 'sae.report');
  return inTransaction(db, async (trx) => {
    const report = await lockSaeReportForChange(trx, principal, input, 'sae.report');
    const version = await trx
      .selectFrom('sae_report_versions')
      .select(['content', 'submitted_at'])
      .where('report_id', '=', report.id)
      .where('version', '=', report.current_version)
      .executeTakeFirstOrThrow();
    if (version.submitted_at !== null) throw new AppError(409, 'sae_state_conflict');
    const before = contentOf(version.content);
    const fields = changedFields(before, input.content);
    const now = new Date();
    await trx
      .updateTable('sae_report_versions')
      .set({ content: JSON.stringify(input.content), saved_by: principal.user.id, saved_at: now })
      .where('report_id', '=', report.id)
      .where('version', '=', report.current_version)
      .execute();
    const updated = await trx
      .updateTable('sae_reports')
      .set({ row_version: report.row_version + 1 })
      .where('id', '=', report.id)
      .returning('row_version')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'sae.draft_saved',
      ...saeAuditScope(report),
      before: { version: report.current_version, ...Object.fromEntries(fields.map((f) => [f, before[f]])) },
      after: {
        version: report.current_version,
        ...Object.fromEntries(fields.map((f) => [f, input.content[f]])),
      },
    });
    return presentSaeReport(trx, principal, { ...report, row_version: updated.row_version }, now);
  });
}
