import {
  definitionUploadResponseSchema,
  designApprovalRequestSchema,
  designDraftQuerySchema,
  designDraftResponseSchema,
  designReviewCommentRequestSchema,
  designSettingsRequestSchema,
  paramIdSchema,
  revisionRequestSchema,
  saveDesignDraftRequestSchema,
  saveDesignDraftResponseSchema,
} from '@cdms/contract';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { SIGNING_CREDENTIALS_REFUSAL } from '../signature-state/verify-signing-credentials.ts';
import { approveDesignDraft } from './approve-design-draft.ts';
import { changeDesignApprovalSetting } from './change-design-approval-setting.ts';
import { commentOnDesignReview } from './comment-on-design-review.ts';
import { DEFINITION_BODY_LIMIT_BYTES } from './definition-body-limit.ts';
import { publishDesignDraft } from './publish-design-draft.ts';
import { readDesignDraft } from './read-design-draft.ts';
import { requestDesignReview } from './request-design-review.ts';
import { saveDesignDraft } from './save-design-draft.ts';

const reviewParams = z.object({ studyId: paramIdSchema, reviewId: paramIdSchema });
const DRAFT_CHANGED =
  'The draft was saved by someone since the revision named (`design_draft_changed`, who and what in `error.details`)';

/** The designer's draft (issue 48 items 6 and 7): autosave, concurrency, review, approval, publish. */
export function registerDesignDraftRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['study design'];

  app.get(
    '/api/studies/:studyId/design-draft',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "The study's design draft, its last saves (who, when, what changed) and its open review",
        params: studyParams,
        querystring: designDraftQuerySchema,
        response: { 200: designDraftResponseSchema },
      },
    },
    async (request) =>
      readDesignDraft(
        db,
        request.params.studyId,
        request.query.lang ?? requestLanguage(request),
        request.query.parts,
      ),
  );

  app.put(
    '/api/studies/:studyId/design-draft',
    {
      bodyLimit: DEFINITION_BODY_LIMIT_BYTES,
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: 'Save the design draft as it is (the designer saves as it goes); audited as a draft change',
        description:
          'The body names the revision the edit was made on (`baseRevision`, 0 without a draft). A draft may still ' +
          'have definition problems: they are refused at publish, not here.',
        params: studyParams,
        body: saveDesignDraftRequestSchema,
        response: {
          200: saveDesignDraftResponseSchema,
          ...refusals({
            409: `${DRAFT_CHANGED}, the draft was published since (\`design_draft_gone\`), or the study is neither in design nor amended (\`study_not_in_design\`: a live study's draft is an amendment's).`,
            413: 'The document is larger than 16 MB (`payload_too_large`).',
          }),
        },
      },
    },
    async (request) =>
      saveDesignDraft(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body,
        requestLanguage(request),
      ),
  );

  app.post(
    '/api/studies/:studyId/design-draft/publish',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "Publish the draft's revision as the study's current version (in design only)",
        params: studyParams,
        body: revisionRequestSchema,
        response: {
          200: definitionUploadResponseSchema,
          ...refusals({
            409: `${DRAFT_CHANGED}, there is no draft (\`design_draft_required\`), the study asks for an approved review (\`design_approval_required\`), or it is not in design (\`study_not_in_design\`).`,
            422: "The draft has definition problems (`invalid_definition`, listed in `error.details.problems`) or another study's key (`definition_key_mismatch`).",
          }),
        },
      },
    },
    async (request) =>
      publishDesignDraft(
        db,
        actorOf(request),
        request.params.studyId,
        request.body.revision,
        requestLanguage(request),
      ),
  );

  app.post(
    '/api/studies/:studyId/design-draft/reviews',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "Ask a second designer to review the draft's revision (closes an earlier request)",
        params: studyParams,
        body: revisionRequestSchema,
        response: {
          200: z.object({ reviewId: z.number().int() }),
          ...refusals({
            409: `${DRAFT_CHANGED}, there is no draft (\`design_draft_required\`), or the study is not in design (\`study_not_in_design\`).`,
          }),
        },
      },
    },
    async (request) =>
      requestDesignReview(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body.revision,
        requestLanguage(request),
      ),
  );

  app.post(
    '/api/studies/:studyId/design-draft/reviews/:reviewId/comments',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: 'Comment on an element of the draft under review (`study`, `visit:V1`, `form:DM/item:AGE`…)',
        params: reviewParams,
        body: designReviewCommentRequestSchema,
        response: {
          200: z.object({ commentId: z.number().int() }),
          ...refusals({
            404: 'The study has no such review.',
            409: 'The review is closed (`design_review_not_open`), there is no draft, or the study is not in design.',
            422: 'The draft has no such element (`design_element_not_found`).',
          }),
        },
      },
    },
    async (request) =>
      commentOnDesignReview(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.reviewId,
        request.body,
      ),
  );

  app.post(
    '/api/studies/:studyId/design-draft/reviews/:reviewId/approval',
    {
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "A second designer approves the draft's revision with an e-signature",
        params: reviewParams,
        body: designApprovalRequestSchema,
        response: {
          200: z.object({ revision: z.number().int(), contentHash: z.string() }),
          ...refusals({
            404: 'The study has no such review.',
            409: `${DRAFT_CHANGED}, the review is closed (\`design_review_not_open\`), the signer asked for it (\`design_review_own_request\`), or the study is not in design.`,
            422: SIGNING_CREDENTIALS_REFUSAL,
            429: 'Too many wrong passwords (`too_many_signature_attempts`).',
          }),
        },
      },
    },
    async (request) =>
      approveDesignDraft(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.reviewId,
        request.body,
        requestLanguage(request),
      ),
  );

  app.put(
    '/api/studies/:studyId/design-settings',
    {
      config: { access: { study: 'study.administer' } },
      schema: {
        tags,
        summary: 'Whether a design draft is published only with an approved review (administrators)',
        params: studyParams,
        body: designSettingsRequestSchema,
        response: { 200: designSettingsRequestSchema.strip() },
      },
    },
    async (request) =>
      changeDesignApprovalSetting(
        db,
        actorOf(request),
        request.params.studyId,
        request.body.approvalRequired,
      ),
  );
}
