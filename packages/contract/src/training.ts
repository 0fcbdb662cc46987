import { z } from 'zod';
import { attachmentSchema } from './attachments.ts';
import { pagedShape, pageQueryShape } from './ids.ts';
import { roles } from './role-names.ts';
import { roleSchema } from './roles.ts';

/**
 * eTraining (issue 18 item 5): training modules per study, written by DM and ADMIN
 * (`training.manage`), each required for some study roles, with an optional single-choice quiz and
 * a pass mark. Every member sees the published modules required for their roles, reads them and marks
 * them complete or passes the quiz (answers checked on the server; the right answers are sent only
 * after a submission, and to managers who edit the module). A completion counts for the module's
 * version: a change to a published module's content bumps the version and older completions no
 * longer count.
 *
 * With the study setting `gatesDataEntry` on, a site user who has not completed every required
 * published module at its current version is refused writes to subject data: 403
 * `training_required`, `details.trainingPath` the training page.
 *
 * Routes (all under /api/studies/:studyId/training):
 *   GET  /                                 my modules (managers: every module) → TrainingListResponse
 *   POST /modules                          DM, ADMIN (trainingModuleRequestSchema) → TrainingModuleDetail (201)
 *   GET  /modules/:moduleId                → TrainingModuleDetail
 *   PUT  /modules/:moduleId                DM, ADMIN (trainingModuleRequestSchema) → TrainingModuleDetail
 *   POST /modules/:moduleId/complete       read and marked complete (no quiz) → TrainingResult
 *   POST /modules/:moduleId/quiz           (trainingQuizSubmissionSchema) → TrainingResult
 *   GET  /modules/:moduleId/certificate.pdf   the certificate of my completion at the current version
 *   GET  /matrix                           DM, ADMIN: users × published modules (trainingMatrixQuerySchema)
 *   GET  /matrix/download                  DM, ADMIN: the same as CSV
 *   PUT  /settings                         DM, ADMIN (trainingSettingsRequestSchema) → TrainingSettings
 * Attachments: uploaded to the study's attachment store (`attachments.ts`) and owned by the module
 * saved with their ids; members download them there (audited).
 */

export const TRAINING_TITLE_MAX = 200;
export const TRAINING_CONTENT_MAX = 200_000;
export const TRAINING_QUESTIONS_MAX = 20;
export const TRAINING_OPTIONS_MAX = 6;
export const TRAINING_ATTACHMENTS_MAX = 10;

export const trainingStates = ['draft', 'published'] as const;
export type TrainingState = (typeof trainingStates)[number];

/** A member's standing on one module: completed at its current version, at an older one, or never. */
export const trainingStatuses = ['completed', 'outdated', 'not_done'] as const;
export type TrainingStatus = (typeof trainingStatuses)[number];

export const trainingQuestionSchema = z.strictObject({
  text: z.string().trim().min(1).max(500),
  options: z.array(z.string().trim().min(1).max(200)).min(2).max(TRAINING_OPTIONS_MAX),
  /** The index of the right option (the server refuses one outside the options: 422). */
  answer: z
    .number()
    .int()
    .min(0)
    .max(TRAINING_OPTIONS_MAX - 1),
});
export type TrainingQuestion = z.infer<typeof trainingQuestionSchema>;

export const trainingQuizSchema = z.strictObject({
  questions: z.array(trainingQuestionSchema).min(1).max(TRAINING_QUESTIONS_MAX),
  /** Percent of right answers needed to pass. */
  passMark: z.number().int().min(1).max(100),
});
export type TrainingQuiz = z.infer<typeof trainingQuizSchema>;

export const trainingModuleRequestSchema = z.strictObject({
  title: z.string().trim().min(1).max(TRAINING_TITLE_MAX),
  contentHtml: z.string().max(TRAINING_CONTENT_MAX),
  /** The study roles that must complete it. */
  roles: z.array(roleSchema).min(1).max(roles.length),
  quiz: trainingQuizSchema.nullable(),
  state: z.enum(trainingStates),
  /** Files uploaded to the study's attachment store that the module holds (the others it had are let go). */
  attachmentIds: z.array(z.uuid()).max(TRAINING_ATTACHMENTS_MAX).default([]),
});
export type TrainingModuleRequest = z.infer<typeof trainingModuleRequestSchema>;

export const trainingModuleSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  roles: z.array(roleSchema),
  version: z.number().int(),
  state: z.enum(trainingStates),
  questionCount: z.number().int(),
  passMark: z.number().int().nullable(),
  updatedAt: z.string(),
  /** Required for one of the reader's roles (and published). */
  required: z.boolean(),
  myStatus: z.enum(trainingStatuses),
  /** The reader's newest completion (ISO 8601, UTC) and the version it was for. */
  completedAt: z.string().nullable(),
  completedVersion: z.number().int().nullable(),
});
export type TrainingModuleSummary = z.infer<typeof trainingModuleSummarySchema>;

export const trainingListResponseSchema = z.object({
  modules: z.array(trainingModuleSummarySchema),
  canManage: z.boolean(),
  /** The study setting: data entry waits for the required modules. */
  gatesDataEntry: z.boolean(),
  /** Required published modules the reader has not completed at their current version. */
  pendingRequired: z.number().int(),
});
export type TrainingListResponse = z.infer<typeof trainingListResponseSchema>;

export const trainingModuleDetailSchema = trainingModuleSummarySchema.extend({
  contentHtml: z.string(),
  /** The quiz as a taker sees it: questions and options, never the right answers. */
  quiz: z
    .object({
      questions: z.array(z.object({ text: z.string(), options: z.array(z.string()) })),
      passMark: z.number().int(),
    })
    .nullable(),
  /** Managers only: the quiz with its answers, to edit. */
  editableQuiz: trainingQuizSchema.nullable(),
  attachments: z.array(attachmentSchema),
  canManage: z.boolean(),
});
export type TrainingModuleDetail = z.infer<typeof trainingModuleDetailSchema>;

export const trainingQuizSubmissionSchema = z.strictObject({
  /** The chosen option's index per question, in order. */
  answers: z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(TRAINING_OPTIONS_MAX - 1),
    )
    .min(1)
    .max(TRAINING_QUESTIONS_MAX),
});
export type TrainingQuizSubmission = z.infer<typeof trainingQuizSubmissionSchema>;

export const trainingResultSchema = z.object({
  passed: z.boolean(),
  /** Percent right (quiz only). */
  score: z.number().int().nullable(),
  passMark: z.number().int().nullable(),
  /** After a submission: each question right or not, and the right option. */
  results: z.array(z.object({ correct: z.boolean(), answer: z.number().int() })).nullable(),
  version: z.number().int(),
  completedAt: z.string().nullable(),
});
export type TrainingResult = z.infer<typeof trainingResultSchema>;

export const trainingMatrixQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.enum(trainingStatuses).optional(),
  ...pageQueryShape([10, 20, 50], 20),
});
export type TrainingMatrixQuery = z.input<typeof trainingMatrixQuerySchema>;

export const trainingMatrixCellSchema = z.object({
  moduleId: z.number().int(),
  /** `null`: not required for this user's roles. */
  status: z.enum(trainingStatuses).nullable(),
  version: z.number().int().nullable(),
  completedAt: z.string().nullable(),
});

export const trainingMatrixResponseSchema = z.object({
  modules: z.array(z.object({ id: z.number().int(), title: z.string(), version: z.number().int() })),
  rows: z.array(
    z.object({
      userId: z.number().int(),
      name: z.string(),
      roles: z.array(roleSchema),
      cells: z.array(trainingMatrixCellSchema),
    }),
  ),
  ...pagedShape,
});
export type TrainingMatrixResponse = z.infer<typeof trainingMatrixResponseSchema>;

export const trainingSettingsRequestSchema = z.strictObject({ gatesDataEntry: z.boolean() });
export const trainingSettingsSchema = z.object({ gatesDataEntry: z.boolean() });
export type TrainingSettings = z.infer<typeof trainingSettingsSchema>;

/** The training page of a study (the `trainingPath` of a `training_required` refusal). */
export function trainingPagePath(studyId: number): string {
  return `/system-e-training/${studyId}`;
}
