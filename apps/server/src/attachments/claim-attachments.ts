import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/** The documents that own attachments. */
export type AttachmentOwnerKind = 'guideline' | 'task_notice' | 'training_module';

/**
 * Makes `attachmentIds` the attachments of one document, in the caller's transaction: each must be of
 * the study and either unowned and uploaded by this user, or already this document's. Attachments the
 * document had and no longer lists are released (owner cleared; their bytes stay for the audit trail's
 * sake until removed by an administrator). 422 `attachment_unknown` otherwise.
 */
export async function claimAttachments(
  trx: Transaction<Database>,
  owner: { kind: AttachmentOwnerKind; id: number; studyId: number },
  userId: number,
  attachmentIds: readonly string[],
): Promise<void> {
  const wanted = [...new Set(attachmentIds)];
  if (wanted.length > 0) {
    const found = await trx
      .selectFrom('attachments')
      .select('id')
      .where('id', 'in', wanted)
      .where('study_id', '=', owner.studyId)
      .where((eb) =>
        eb.or([
          eb.and([eb('owner_kind', 'is', null), eb('uploaded_by', '=', userId)]),
          eb.and([eb('owner_kind', '=', owner.kind), eb('owner_id', '=', owner.id)]),
        ]),
      )
      .forUpdate()
      .execute();
    if (found.length !== wanted.length) throw new AppError(422, 'attachment_unknown');
  }
  let release = trx
    .updateTable('attachments')
    .set({ owner_kind: null, owner_id: null })
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id);
  if (wanted.length > 0) release = release.where('id', 'not in', wanted);
  await release.execute();
  if (wanted.length > 0)
    await trx
      .updateTable('attachments')
      .set({ owner_kind: owner.kind, owner_id: owner.id })
      .where('id', 'in', wanted)
      .execute();
}
