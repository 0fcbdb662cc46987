import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { requireExporter } from './require-exporter.ts';

export interface ExportDownload {
  fileName: string;
  contentType: string;
  byteSize: number;
  /** The file's chunks in order, read one row at a time: never the whole file in memory. */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * `GET /api/studies/:studyId/data-exports/:exportId/download`: a finished export's file. Data leaving
 * the system is audited (who, which export) before the first byte leaves.
 */
export async function downloadExport(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  exportId: number,
): Promise<ExportDownload> {
  requireExporter(principal, studyId);
  const job = await db
    .selectFrom('data_exports')
    .select(['state', 'format', 'file_name', 'content_type', 'byte_size', 'sha256', 'values_done'])
    .where('id', '=', exportId)
    .where('study_id', '=', studyId)
    .executeTakeFirst();
  if (!job) throw new AppError(404, 'not_found');
  if (job.state !== 'done' || job.file_name === null || job.content_type === null)
    throw new AppError(409, 'data_export_not_ready');
  await recordAudit(db, actor, {
    type: 'data_export.downloaded',
    entityType: 'data_export',
    entityId: exportId,
    studyId,
    after: { format: job.format, file: job.file_name, sha256: job.sha256, values: job.values_done },
  });
  return {
    fileName: job.file_name,
    contentType: job.content_type,
    byteSize: Number(job.byte_size),
    chunks: exportChunks(db, exportId),
  };
}

async function* exportChunks(db: Kysely<Database>, exportId: number): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq += 1) {
    const row = await db
      .selectFrom('data_export_chunks')
      .select('bytes')
      .where('export_id', '=', exportId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!row) return;
    yield row.bytes;
  }
}
