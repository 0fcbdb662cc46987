import type { DesignReviewCommentRequest } from '@cdms/contract';
import { designElementsOf } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { designDraftRow } from './design-draft-row.ts';
import { requireOpenDesignReview } from './open-design-review.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/**
 * `POST …/design-draft/reviews/:reviewId/comments` (issue 48 item 7): a designer comments on an
 * element of the draft under review — the study, a visit, a form, an item of a form, a code list,
 * named by keys (`form:DM/item:AGE`) so the comment stays on its element when others move. The
 * element must exist in the draft as it is; the comment records the revision it was written on.
 */
export async function commentOnDesignReview(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  reviewId: number,
  request: DesignReviewCommentRequest,
): Promise<{ commentId: number }> {
  return inTransaction(db, async (trx) => {
    await requireStudyInDesign(trx, studyId, { forUpdate: true });
    await requireOpenDesignReview(trx, studyId, reviewId);
    const draft = await designDraftRow(trx, studyId);
    if (!draft) throw new AppError(409, 'design_draft_required');
    if (!designElementsOf(draft.definition).some((element) => element.ref === request.element))
      throw new AppError(422, 'design_element_not_found', { element: request.element });
    const comment = await trx
      .insertInto('study_design_review_comments')
      .values({
        review_id: reviewId,
        element: request.element,
        text: request.text,
        revision: draft.revision,
        author_id: principal.user.id,
        created_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      type: 'study.design_review_commented',
      entityType: 'study_design_review',
      entityId: reviewId,
      studyId,
      after: {
        commentId: comment.id,
        element: request.element,
        text: request.text,
        revision: draft.revision,
      },
    });
    return { commentId: comment.id };
  });
}
