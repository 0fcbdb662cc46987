import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import type { Language } from '../http/language.ts';
import { requireDraftRevision } from './design-draft-row.ts';
import { closeOpenDesignReview } from './open-design-review.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/**
 * `POST …/design-draft/reviews` (issue 48 item 7): a designer asks a second designer to review the
 * draft as it is (the revision they see). A review asked for before is closed — its comments stay in
 * the audit trail — and the new one starts without an approval. Audited.
 */
export async function requestDesignReview(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  revision: number,
  language: Language,
): Promise<{ reviewId: number }> {
  return inTransaction(db, async (trx) => {
    await requireStudyInDesign(trx, studyId, { forUpdate: true });
    await requireDraftRevision(trx, studyId, revision, language);
    const now = new Date();
    await closeOpenDesignReview(trx, studyId, now);
    const review = await trx
      .insertInto('study_design_reviews')
      .values({ study_id: studyId, revision, requested_by: principal.user.id, requested_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'study.design_review_requested',
      entityType: 'study_design_review',
      entityId: review.id,
      studyId,
      after: { revision },
    });
    return { reviewId: review.id };
  });
}
