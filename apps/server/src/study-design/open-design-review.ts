import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * The study's review a comment or an approval is about: 404 when the study has no such review, 409
 * `design_review_not_open` once it was closed (a publish, or a newer request).
 */
export async function requireOpenDesignReview(
  trx: Transaction<Database>,
  studyId: number,
  reviewId: number,
): Promise<{ id: number; requested_by: number; approved_by: number | null }> {
  const review = await trx
    .selectFrom('study_design_reviews')
    .select(['id', 'requested_by', 'approved_by', 'closed_at'])
    .where('id', '=', reviewId)
    .where('study_id', '=', studyId)
    .forUpdate()
    .executeTakeFirst();
  if (!review) throw new AppError(404, 'not_found');
  if (review.closed_at) throw new AppError(409, 'design_review_not_open');
  return review;
}

/**
 * Closes the study's open review, if any (a study has one at a time): a newer request replaces it, a
 * publish ends it. Its comments and approval stay, and stay in the audit trail.
 */
export async function closeOpenDesignReview(
  trx: Transaction<Database>,
  studyId: number,
  closedAt: Date,
): Promise<void> {
  await trx
    .updateTable('study_design_reviews')
    .set({ closed_at: closedAt })
    .where('study_id', '=', studyId)
    .where('closed_at', 'is', null)
    .execute();
}
