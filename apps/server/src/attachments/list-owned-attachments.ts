import type { Attachment } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AttachmentOwnerKind } from './claim-attachments.ts';
import { presentAttachment } from './present-attachment.ts';

/** The files a document holds (a guideline, a training module), in the order they were added. */
export async function listOwnedAttachments(
  db: Kysely<Database>,
  owner: { kind: AttachmentOwnerKind; id: number },
): Promise<Attachment[]> {
  const rows = await db
    .selectFrom('attachments')
    .select(['id', 'file_name', 'content_type', 'size', 'sha256', 'created_at'])
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(presentAttachment);
}
