import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { canWriteNotices } from '../notices/notices.ts';

/**
 * An attachment's bytes for a member of its study, audited (one record per download, in the same
 * transaction that reads the bytes). What the member may not see is not found (404): another study's
 * file, a draft guideline's for a reader, an unsaved upload of someone else. The bytes are not read
 * here: the route streams them chunk by chunk after the audited transaction (`readAttachmentChunks`;
 * chunks never change, so reading them later reads what was audited).
 */
export async function downloadAttachment(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  attachmentId: string,
): Promise<{ fileName: string; contentType: string; size: number; sha256: string }> {
  authorize(principal, 'member', { studyId });
  const writer = canWriteNotices(principal, studyId);
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('attachments')
      .leftJoin('guidelines', (join) =>
        join
          .onRef('guidelines.id', '=', 'attachments.owner_id')
          .on('attachments.owner_kind', '=', 'guideline'),
      )
      .select([
        'attachments.id',
        'attachments.file_name',
        'attachments.content_type',
        'attachments.size',
        'attachments.sha256',
        'attachments.owner_kind',
        'attachments.owner_id',
        'attachments.uploaded_by',
        'guidelines.state as guideline_state',
      ])
      .where('attachments.id', '=', attachmentId)
      .where('attachments.study_id', '=', studyId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    const visible =
      row.owner_kind === null
        ? row.uploaded_by === principal.user.id
        : row.owner_kind === 'guideline'
          ? row.guideline_state !== 'draft' || writer
          : true;
    if (!visible) throw new AppError(404, 'not_found');
    await recordAudit(trx, actor, {
      type: 'attachment.downloaded',
      entityType: 'attachment',
      entityId: row.id,
      studyId,
      after: {
        fileName: row.file_name,
        sha256: row.sha256,
        ownerKind: row.owner_kind,
        ownerId: row.owner_id,
      },
    });
    return { fileName: row.file_name, contentType: row.content_type, size: row.size, sha256: row.sha256 };
  });
}
