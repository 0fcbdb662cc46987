import { z } from 'zod';
import { definitionDiffLineSchema } from './definition-versions.ts';
import { localizedSchema } from './localized.ts';
import { signCasebookRequestSchema } from './signatures.ts';

/**
 * A study's design draft (issue 48 items 6 and 7): the designer saves its work to the server as it
 * goes, each save a numbered revision audited with what it changed; two designers never overwrite each
 * other silently (a save names the revision it was made on, and a later one answers 409); a second
 * designer reviews the draft — comments on its elements and approves it with an e-signature — and a
 * publish turns the draft into the study's current version.
 *
 * Routes (the study's designers, `study.design`; the approval setting `study.administer`):
 *   GET  /api/studies/:studyId/design-draft?lang=ko|en&parts=all|activity
 *   PUT  /api/studies/:studyId/design-draft
 *   POST /api/studies/:studyId/design-draft/publish
 *   POST /api/studies/:studyId/design-draft/reviews
 *   POST /api/studies/:studyId/design-draft/reviews/:reviewId/comments
 *   POST /api/studies/:studyId/design-draft/reviews/:reviewId/approval
 *   PUT  /api/studies/:studyId/design-settings
 */

/** Who did something, and when (ISO 8601). */
export const byWhomSchema = z.object({ userId: z.number().int(), name: z.string(), at: z.string() });
export type ByWhom = z.infer<typeof byWhomSchema>;

/** One saved revision of the draft: who saved it, when, and what it changed (in one language). */
export const designDraftChangeSchema = z.object({
  revision: z.number().int(),
  savedBy: byWhomSchema,
  /** The lines of what changed from the revision before (or the published version), at most 20. */
  lines: z.array(definitionDiffLineSchema),
  /** How many lines there were in all; null when they could not be told (the draft had problems). */
  lineCount: z.number().int().nullable(),
});
export type DesignDraftChange = z.infer<typeof designDraftChangeSchema>;

/**
 * An element of the draft a comment is about, by keys: `study`, `visit:V1`, `form:DM`,
 * `form:DM/item:AGE`, `codeList:SEX`.
 */
export const designElementSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .regex(/^(study|(visit|form|codeList):[A-Za-z0-9_.-]+(\/item:[A-Za-z0-9_.-]+)?)$/);

export const designReviewCommentSchema = z.object({
  id: z.number().int(),
  element: z.string(),
  text: z.string(),
  /** The draft revision the comment was written on. */
  revision: z.number().int(),
  author: byWhomSchema,
});
export type DesignReviewComment = z.infer<typeof designReviewCommentSchema>;

/** The review of the draft: asked for on a revision, commented on, approved (or not yet). */
export const designReviewSchema = z.object({
  id: z.number().int(),
  revision: z.number().int(),
  requestedBy: byWhomSchema,
  /** The approval, with the revision and content hash it was given on; null while none. */
  approval: z.object({ by: byWhomSchema, revision: z.number().int(), contentHash: z.string() }).nullable(),
  comments: z.array(designReviewCommentSchema),
  /** What an approval given now means, in both languages, as the server records it (the dialog shows it). */
  approvalMeaning: localizedSchema,
});
export type DesignReview = z.infer<typeof designReviewSchema>;

export const designDraftQuerySchema = z.object({
  lang: z.enum(['ko', 'en']).optional(),
  /** `activity`: without the draft's document (the changes list and the review, read again after each save). */
  parts: z.enum(['all', 'activity']).optional(),
});

/** `GET …/design-draft`: the draft (null while there is none), its recent changes and its review. */
export const designDraftResponseSchema = z.object({
  draft: z
    .object({
      revision: z.number().int(),
      /**
       * The document being designed; it may still have problems (they are checked at publish). Left
       * out when only the activity was asked for.
       */
      definition: z.record(z.string(), z.unknown()).optional(),
      savedBy: byWhomSchema,
      /** The content hash of the published version the draft was started from; null: none yet. */
      basedOnHash: z.string().nullable(),
    })
    .nullable(),
  /** The last 30 saves, newest first. */
  changes: z.array(designDraftChangeSchema),
  /** The open review of the draft; null while none was asked for. */
  review: designReviewSchema.nullable(),
  /** Whether a publish needs an approved review (a setting of the study). */
  approvalRequired: z.boolean(),
  /** The study's current published version; null while nothing is published (its definition is then a 404). */
  publishedVersion: z.string().nullable(),
  /**
   * The amendment a live study's draft belongs to (issue 49): its next version is this draft, published
   * from the amendment's page; null in design, or while a live study has no amendment drafted.
   */
  amendment: z.object({ id: z.number().int(), number: z.string() }).nullable(),
});
export type DesignDraftResponse = z.infer<typeof designDraftResponseSchema>;

export const saveDesignDraftRequestSchema = z.strictObject({
  /** The revision the edit was made on; 0 when the designer started without a draft. */
  baseRevision: z.number().int().min(0).max(2_000_000_000),
  definition: z.record(z.string(), z.unknown()),
});
export type SaveDesignDraftRequest = z.infer<typeof saveDesignDraftRequestSchema>;

export const saveDesignDraftResponseSchema = z.object({ revision: z.number().int(), savedAt: z.string() });
export type SaveDesignDraftResponse = z.infer<typeof saveDesignDraftResponseSchema>;

/**
 * The details of a 409 `design_draft_changed`: someone saved the draft since the revision the edit was
 * made on — who, which revision, and how their draft differs from the one sent (what to merge).
 */
export const designDraftConflictSchema = z.object({
  revision: z.number().int(),
  savedBy: byWhomSchema,
  lines: z.array(definitionDiffLineSchema),
  lineCount: z.number().int().nullable(),
});
export type DesignDraftConflict = z.infer<typeof designDraftConflictSchema>;

export const revisionRequestSchema = z.strictObject({ revision: z.number().int().min(1).max(2_000_000_000) });
export type RevisionRequest = z.infer<typeof revisionRequestSchema>;

export const designReviewCommentRequestSchema = z.strictObject({
  element: designElementSchema,
  text: z.string().trim().min(1).max(2000),
});
export type DesignReviewCommentRequest = z.infer<typeof designReviewCommentRequestSchema>;

export const designApprovalRequestSchema = signCasebookRequestSchema.extend({
  revision: z.number().int().min(1).max(2_000_000_000),
});
export type DesignApprovalRequest = z.infer<typeof designApprovalRequestSchema>;

export const designSettingsRequestSchema = z.strictObject({ approvalRequired: z.boolean() });
export type DesignSettingsRequest = z.infer<typeof designSettingsRequestSchema>;
