import type { DesignApprovalRequest } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import {
  type SigningFailure,
  verifySigningCredentials,
} from '../signature-state/verify-signing-credentials.ts';
import { definitionContentHash } from '../studies/definition-content-hash.ts';
import { requireDraftRevision } from './design-draft-row.ts';
import { requireOpenDesignReview } from './open-design-review.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/** What the approval signature means (21 CFR 11.50(a)(3)), recorded with it. */
export const DESIGN_APPROVAL_MEANING = {
  ko: '이 설계 초안을 검토하였고 배포를 승인합니다.',
  en: 'I have reviewed this design draft and approve its publication.',
};

/**
 * `POST …/design-draft/reviews/:reviewId/approval` (issue 48 item 7): a second designer — not the one
 * who asked for the review — approves the draft as they saw it (its revision) with an e-signature: their
 * password again, and their code with two-factor sign-in. The approval names the revision and its
 * content hash; a later save leaves it standing but a publish takes it only for that very content.
 * A wrong password changes nothing but is audited and counted like every signature's.
 */
export async function approveDesignDraft(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  reviewId: number,
  request: DesignApprovalRequest,
  language: Language,
): Promise<{ revision: number; contentHash: string }> {
  await requireStudyInDesign(db, studyId);
  await requireDraftRevision(db, studyId, request.revision, language);
  await verifySigningCredentials(db, principal.user, request, new Date(), (failure) =>
    auditFailure(db, actor, studyId, reviewId, failure),
  );
  return inTransaction(db, async (trx) => {
    await requireStudyInDesign(trx, studyId, { forUpdate: true });
    const review = await requireOpenDesignReview(trx, studyId, reviewId);
    if (review.requested_by === principal.user.id) throw new AppError(409, 'design_review_own_request');
    const draft = await requireDraftRevision(trx, studyId, request.revision, language);
    const contentHash = definitionContentHash(draft.definition as StudyDefinition);
    const approvedAt = new Date();
    await trx
      .updateTable('study_design_reviews')
      .set({
        approved_by: principal.user.id,
        approved_at: approvedAt,
        approved_revision: draft.revision,
        approved_hash: contentHash,
      })
      .where('id', '=', reviewId)
      .execute();
    await recordAudit(trx, actor, {
      type: 'study.design_approved',
      entityType: 'study_design_review',
      entityId: reviewId,
      studyId,
      after: {
        revision: draft.revision,
        contentHash,
        approvedAt: approvedAt.toISOString(),
        printedName: principal.user.name,
        meaning: DESIGN_APPROVAL_MEANING,
      },
    });
    return { revision: draft.revision, contentHash };
  });
}

/** Audits a refused approval signature in a transaction of its own: the refusal rolls nothing of it back. */
async function auditFailure(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  reviewId: number,
  after: SigningFailure,
): Promise<void> {
  await recordAudit(db, actor, {
    type: 'signature.failed',
    entityType: 'study_design_review',
    entityId: reviewId,
    studyId,
    after,
  });
}
