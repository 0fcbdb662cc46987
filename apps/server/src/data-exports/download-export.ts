import { type Kysely, sql } from 'kysely';
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
  /** The file's chunks in order, read one chunk at a time in slices: never the whole file in memory. */
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
    .select([
      'state',
      'format',
      'mask_personal_data',
      'file_name',
      'content_type',
      'byte_size',
      'sha256',
      'values_done',
    ])
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
    // Whether the file carried personal data is part of who took what.
    after: {
      format: job.format,
      maskPersonalData: job.mask_personal_data,
      file: job.file_name,
      sha256: job.sha256,
      values: job.values_done,
    },
  });
  return {
    fileName: job.file_name,
    contentType: job.content_type,
    byteSize: Number(job.byte_size),
    chunks: exportChunks(db, exportId),
  };
}

/**
 * What one row of a chunk's read carries. A bytea travels as hex text, two characters a byte, so a
 * whole 1 MB chunk came as a 2 MB string (V8's large-object space, collected only by a full
 * collection) and a 1 MB buffer: a download of 81 MB raised the server's resident set by ~65 MB.
 * Slices of 32 KB make strings of 64 KB, which die young in the scavenges, and one query per chunk
 * still reads the chunk in one round trip (the column is stored uncompressed, so PostgreSQL reads
 * only each slice's pages). What the download still adds (~30 MB over where an export job leaves the
 * server) is garbage awaiting a scavenge: each slice's 64 KB of socket buffer and its 32 KB Buffer
 * live outside V8's heap and are freed only at the next scavenge, which comes after ~16 MB of young
 * objects — the slices' hex strings, so about every 8 MB of file. Measured and not kept (issue 46,
 * docs/PERFORMANCE.md): one slice per query (the same peak in twice the time) and base64 text (fewer
 * bytes, but its shorter strings put the scavenges as much further apart: no lower).
 */
const DOWNLOAD_SLICE_BYTES = 32 * 1024;

async function* exportChunks(db: Kysely<Database>, exportId: number): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq += 1) {
    const { rows } = await sql<{ bytes: Uint8Array }>`
      select substring(c.bytes from s.start for ${DOWNLOAD_SLICE_BYTES}) as bytes
      from data_export_chunks c
      cross join generate_series(1, length(c.bytes), ${DOWNLOAD_SLICE_BYTES}) as s(start)
      where c.export_id = ${exportId} and c.seq = ${seq}
      order by s.start`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) yield row.bytes;
  }
}
