import type { DefinitionDiffLine, DesignDraftResponse, DesignReviewComment } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { latestDefinitionRow } from '../studies/study-definitions.ts';
import { DESIGN_APPROVAL_MEANING } from './approve-design-draft.ts';
import { designDraftRow } from './design-draft-row.ts';

/** How many saves the designer's changes list shows. */
const CHANGES_SHOWN = 30;

/**
 * `GET …/design-draft` (issue 48 items 6 and 7): the study's design draft as last saved (null while
 * there is none: the designer then starts from the published version), its last saves — who, when,
 * what changed, in the reader's language —, the open review with its comments and approval, and
 * whether a publish needs one, and the version published so far (so the designer asks for a definition
 * only when there is one), and the amendment a live study's draft belongs to. Nothing is audited: a
 * design holds no subject data.
 */
export async function readDesignDraft(
  db: Kysely<Database>,
  studyId: number,
  language: Language,
  parts: 'all' | 'activity' = 'all',
): Promise<DesignDraftResponse> {
  const study = await db
    .selectFrom('studies')
    .select('design_approval_required')
    .where('id', '=', studyId)
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const draft = await designDraftRow(db, studyId);
  const changes = await db
    .selectFrom('study_design_draft_changes')
    .innerJoin('users', 'users.id', 'study_design_draft_changes.saved_by')
    .select([
      'study_design_draft_changes.revision',
      'study_design_draft_changes.saved_by',
      'study_design_draft_changes.saved_at',
      'study_design_draft_changes.lines',
      'study_design_draft_changes.line_count',
      'users.name',
    ])
    .where('study_design_draft_changes.study_id', '=', studyId)
    .orderBy('study_design_draft_changes.revision', 'desc')
    .limit(CHANGES_SHOWN)
    .execute();
  const published = await latestDefinitionRow(db, studyId);
  const amendment = await db
    .selectFrom('study_amendments')
    .select(['id', 'number'])
    .where('study_id', '=', studyId)
    .where('status', '=', 'draft')
    .executeTakeFirst();
  return {
    draft: draft
      ? {
          revision: draft.revision,
          ...(parts === 'all' ? { definition: draft.definition as Record<string, unknown> } : {}),
          savedBy: { userId: draft.saved_by, name: draft.name, at: draft.saved_at.toISOString() },
          basedOnHash: draft.based_on_hash,
        }
      : null,
    changes: changes.map((change) => ({
      revision: change.revision,
      savedBy: { userId: change.saved_by, name: change.name, at: change.saved_at.toISOString() },
      lines: (change.lines as Record<Language, DefinitionDiffLine[]>)[language],
      lineCount: change.line_count,
    })),
    review: await readOpenReview(db, studyId),
    approvalRequired: study.design_approval_required,
    publishedVersion: published?.version ?? null,
    amendment: amendment ?? null,
  };
}

async function readOpenReview(db: Kysely<Database>, studyId: number): Promise<DesignDraftResponse['review']> {
  const review = await db
    .selectFrom('study_design_reviews')
    .innerJoin('users as requester', 'requester.id', 'study_design_reviews.requested_by')
    .leftJoin('users as approver', 'approver.id', 'study_design_reviews.approved_by')
    .select([
      'study_design_reviews.id',
      'study_design_reviews.revision',
      'study_design_reviews.requested_by',
      'study_design_reviews.requested_at',
      'requester.name as requesterName',
      'study_design_reviews.approved_by',
      'study_design_reviews.approved_at',
      'study_design_reviews.approved_revision',
      'study_design_reviews.approved_hash',
      'approver.name as approverName',
    ])
    .where('study_design_reviews.study_id', '=', studyId)
    .where('study_design_reviews.closed_at', 'is', null)
    .executeTakeFirst();
  if (!review) return null;
  const comments = await db
    .selectFrom('study_design_review_comments')
    .innerJoin('users', 'users.id', 'study_design_review_comments.author_id')
    .select([
      'study_design_review_comments.id',
      'study_design_review_comments.element',
      'study_design_review_comments.text',
      'study_design_review_comments.revision',
      'study_design_review_comments.author_id',
      'study_design_review_comments.created_at',
      'users.name',
    ])
    .where('study_design_review_comments.review_id', '=', review.id)
    .orderBy('study_design_review_comments.id')
    .execute();
  const approval =
    review.approved_by !== null &&
    review.approved_at !== null &&
    review.approved_revision !== null &&
    review.approved_hash !== null
      ? {
          by: {
            userId: review.approved_by,
            name: review.approverName ?? '',
            at: review.approved_at.toISOString(),
          },
          revision: review.approved_revision,
          contentHash: review.approved_hash,
        }
      : null;
  return {
    id: review.id,
    revision: review.revision,
    requestedBy: {
      userId: review.requested_by,
      name: review.requesterName,
      at: review.requested_at.toISOString(),
    },
    approval,
    comments: comments.map(
      (comment): DesignReviewComment => ({
        id: comment.id,
        element: comment.element,
        text: comment.text,
        revision: comment.revision,
        author: { userId: comment.author_id, name: comment.name, at: comment.created_at.toISOString() },
      }),
    ),
    approvalMeaning: DESIGN_APPROVAL_MEANING,
  };
}
