import type { GuidelineDetail } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { changeGuideline } from './change-guideline.ts';

/** Retires a published guideline: readers no longer see it; writers keep it in the list. */
export async function retireGuideline(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  guidelineId: number,
): Promise<GuidelineDetail> {
  return changeGuideline(db, principal, studyId, guidelineId, async (trx, before) => {
    if (before.state !== 'published') throw new AppError(409, 'guideline_not_published');
    await retirePublishedGuideline(trx, actor, studyId, before, new Date());
  });
}

/**
 * The retirement itself, in the caller's transaction: by hand here, or when a new version is
 * published (`publish-guideline.ts`, which names the version that superseded it).
 */
export async function retirePublishedGuideline(
  trx: Transaction<Database>,
  actor: AuditActor,
  studyId: number,
  guideline: { id: number; version: string },
  now: Date,
  supersededBy?: number,
): Promise<void> {
  await updateRowAudited(
    trx,
    actor,
    { table: 'guidelines', id: guideline.id, set: { state: 'retired', retired_at: now, updated_at: now } },
    {
      type: 'guideline.retired',
      studyId,
      before: { state: 'published' },
      after: {
        state: 'retired',
        version: guideline.version,
        ...(supersededBy === undefined ? {} : { supersededBy }),
      },
    },
  );
}
