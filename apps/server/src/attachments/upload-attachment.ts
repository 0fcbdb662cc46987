import type { Attachment } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { FileSource } from '../uploads/file-source.ts';
import { writeAttachmentChunks } from './attachment-chunks.ts';
import { sanitizeFileName, sniffAttachmentType } from './attachment-type.ts';
import { presentAttachment } from './present-attachment.ts';

/**
 * Stores an uploaded file for the study, not yet owned by any document: the guideline or task notice
 * saved with its id claims it (`claimAttachments`). The caller has checked that the user may write
 * documents in the study. 415 when the bytes are not an accepted type. The bytes go in 1 MB chunks
 * read from `file` (a temporary file for an upload), with the row and its audit record in one
 * transaction: a failure leaves no row and no chunk.
 */
export async function uploadAttachment(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: number,
  studyId: number,
  file: { name: string; source: FileSource },
): Promise<Attachment> {
  const { size, sha256 } = file.source;
  if (size === 0) throw new AppError(415, 'attachment_type_not_allowed');
  const contentType = await sniffAttachmentType(file.source);
  if (!contentType) throw new AppError(415, 'attachment_type_not_allowed');
  const fileName = sanitizeFileName(file.name);
  return inTransaction(db, async (trx) => {
    await writeAttachmentChunks(trx, file.source);
    const row = await trx
      .insertInto('attachments')
      .values({
        study_id: studyId,
        file_name: fileName,
        content_type: contentType,
        size,
        sha256,
        uploaded_by: userId,
      })
      .returning(['id', 'file_name', 'content_type', 'size', 'sha256', 'created_at'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'attachment.uploaded',
      entityType: 'attachment',
      entityId: row.id,
      studyId,
      after: { fileName, contentType, size, sha256 },
    });
    return presentAttachment(row);
  });
}
