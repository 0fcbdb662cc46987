import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findSubjectInScope } from '../subjects/subject-access.ts';

/**
 * A subject's photo for whoever may read the subject (site scope: another site's subject is not found),
 * audited like an attachment download — one record per read, in the transaction that reads the bytes.
 */
export async function readFormPhoto(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; subjectId: number; photoId: number },
): Promise<{ bytes: Buffer; contentType: string; sha256: string }> {
  const subject = await findSubjectInScope(db, principal, input.studyId, input.subjectId);
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('form_photos')
      .select(['id', 'bytes', 'content_type', 'sha256', 'visit_key', 'form_key'])
      .where('id', '=', input.photoId)
      .where('subject_id', '=', subject.id)
      .where('study_id', '=', input.studyId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    await recordAudit(trx, actor, {
      type: 'form_photo.viewed',
      entityType: 'form_photo',
      entityId: row.id,
      studyId: input.studyId,
      siteId: subject.site_id,
      subjectId: subject.id,
      after: { visitKey: row.visit_key, formKey: row.form_key, sha256: row.sha256 },
    });
    return { bytes: Buffer.from(row.bytes), contentType: row.content_type, sha256: row.sha256 };
  });
}
