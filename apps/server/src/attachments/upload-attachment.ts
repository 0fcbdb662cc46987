import { createHash } from 'node:crypto';
import type { Attachment } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { sanitizeFileName, sniffAttachmentType } from './attachment-type.ts';
import { presentAttachment } from './present-attachment.ts';

/**
 * Stores an uploaded file for the study, not yet owned by any document: the guideline or task notice
 * saved with its id claims it (`claimAttachments`). The caller has checked that the user may write
 * documents in the study. 415 when the bytes are not an accepted type.
 */
export async function uploadAttachment(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: number,
  studyId: number,
  file: { name: string; bytes: Buffer },
): Promise<Attachment> {
  const contentType = sniffAttachmentType(file.bytes);
  if (!contentType) throw new AppError(415, 'attachment_type_not_allowed');
  const fileName = sanitizeFileName(file.name);
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('attachments')
      .values({
        study_id: studyId,
        file_name: fileName,
        content_type: contentType,
        size: file.bytes.length,
        sha256,
        bytes: file.bytes,
        uploaded_by: userId,
      })
      .returning(['id', 'file_name', 'content_type', 'size', 'sha256', 'created_at'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'attachment.uploaded',
      entityType: 'attachment',
      entityId: row.id,
      studyId,
      after: { fileName, contentType, size: file.bytes.length, sha256 },
    });
    return presentAttachment(row);
  });
}
