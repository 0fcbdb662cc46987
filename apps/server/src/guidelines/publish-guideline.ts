import type { GuidelineDetail } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { changeGuideline } from './change-guideline.ts';
import { findGuidelineForWrite } from './find-guideline-for-write.ts';
import { retirePublishedGuideline } from './retire-guideline.ts';

/**
 * Publishes a draft: every member sees it from now on. A draft that is a new version of a published
 * guideline retires that one in the same transaction, so readers see one valid version.
 */
export async function publishGuideline(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  guidelineId: number,
): Promise<GuidelineDetail> {
  return changeGuideline(db, principal, studyId, guidelineId, async (trx, before) => {
    if (before.state !== 'draft') throw new AppError(409, 'guideline_not_draft');
    const now = new Date();
    await updateRowAudited(
      trx,
      actor,
      {
        table: 'guidelines',
        id: guidelineId,
        set: { state: 'published', published_at: now, updated_at: now },
      },
      {
        type: 'guideline.published',
        studyId,
        before: { state: 'draft' },
        after: { state: 'published', version: before.version },
      },
    );
    if (before.supersedes_id !== null) {
      const previous = await findGuidelineForWrite(trx, studyId, before.supersedes_id);
      if (previous.state === 'published')
        await retirePublishedGuideline(trx, actor, studyId, previous, now, guidelineId);
    }
  });
}
