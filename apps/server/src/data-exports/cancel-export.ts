import type { DataExport } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { selectExports, toDataExport } from './export-view.ts';
import { requireExporter } from './require-exporter.ts';

/**
 * `POST /api/studies/:studyId/data-exports/:exportId/cancel`: a queued or running export is marked
 * cancelled at once and its chunks so far deleted. A runner still writing it notices at its next
 * progress update (its updates require the `running` state) and deletes what it wrote since.
 */
export async function cancelExport(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  exportId: number,
): Promise<DataExport> {
  requireExporter(principal, studyId);
  await inTransaction(db, async (trx) => {
    const job = await trx
      .selectFrom('data_exports')
      .select(['id', 'state'])
      .where('id', '=', exportId)
      .where('study_id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    if (!job) throw new AppError(404, 'not_found');
    if (job.state !== 'queued' && job.state !== 'running') throw new AppError(409, 'data_export_finished');
    await trx.deleteFrom('data_export_chunks').where('export_id', '=', exportId).execute();
    await updateRowAudited(
      trx,
      actor,
      { table: 'data_exports', id: exportId, set: { state: 'cancelled', finished_at: new Date() } },
      { type: 'data_export.cancelled', studyId, before: { state: job.state } },
    );
  });
  return toDataExport(
    await selectExports(db, studyId).where('data_exports.id', '=', exportId).executeTakeFirstOrThrow(),
  );
}
