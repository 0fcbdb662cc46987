import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { deleteRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findGuidelineForWrite } from './find-guideline-for-write.ts';
import { requireGuidelineWriter } from './guideline-access.ts';
import { guidelineAuditView } from './guideline-content.ts';

/**
 * Discards a draft that was never published (nobody but writers ever saw it). The audit record keeps
 * what it held; its files are released as a removed attachment is (their bytes stay for the trail).
 * A published or retired guideline is never deleted: it is part of what the study told its sites.
 */
export async function deleteGuideline(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  guidelineId: number,
): Promise<void> {
  requireGuidelineWriter(principal, studyId);
  await inTransaction(db, async (trx) => {
    const before = await findGuidelineForWrite(trx, studyId, guidelineId);
    if (before.state !== 'draft') throw new AppError(409, 'guideline_not_draft');
    const attachments = await trx
      .updateTable('attachments')
      .set({ owner_kind: null, owner_id: null })
      .where('owner_kind', '=', 'guideline')
      .where('owner_id', '=', guidelineId)
      .returning('id')
      .execute();
    await deleteRowAudited(
      trx,
      actor,
      { table: 'guidelines', id: guidelineId },
      {
        type: 'guideline.deleted',
        studyId,
        before: {
          ...guidelineAuditView(
            before,
            attachments.map((row) => row.id),
          ),
          supersedesId: before.supersedes_id,
        },
      },
    );
  });
}
