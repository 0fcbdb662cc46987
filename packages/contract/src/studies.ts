import { z } from 'zod';
import { localizedSchema } from './localized.ts';
import { roleSchema } from './roles.ts';
import { signCasebookRequestSchema } from './signatures.ts';

/**
 * A study's state (issue 45): `design` while its designers (DM, ADMIN) build it — nobody else sees
 * it and no subject can be registered —, `active` once an administrator approved it for data entry
 * (go live), `ended` when closed.
 */
export const studyStatuses = ['design', 'active', 'ended'] as const;
export const studyStatusSchema = z.enum(studyStatuses);
export type StudyStatus = z.infer<typeof studyStatusSchema>;

/** What a study studies: the product.md kinds a sponsor registers. */
export const studyKinds = ['drug', 'device', 'observational'] as const;
export const studyKindSchema = z.enum(studyKinds);
export type StudyKind = z.infer<typeof studyKindSchema>;

export const menuTypeSchema = z.enum(['PI', 'CRA']);
export type MenuType = z.infer<typeof menuTypeSchema>;

/** A study as the task lists show it to one user. */
export const studySummarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  title: z.string(),
  content: z.string(),
  status: studyStatusSchema,
  /** Registration date, YYYY-MM-DD. */
  registeredOn: z.string(),
  /** The menu sets this user may open the study with (their roles' sets the study offers). */
  approaches: z.array(menuTypeSchema),
  roles: z.array(roleSchema),
});
export type StudySummary = z.infer<typeof studySummarySchema>;

/** `active` lists the studies in use and those in design (a designer's work list); `ended` the closed ones. */
export const studyListQuerySchema = z.object({
  status: z.enum(['active', 'ended']).default('active'),
  search: z.string().trim().max(100).optional(),
});

export const studyListResponseSchema = z.object({ studies: z.array(studySummarySchema) });

/** One reason a definition document was refused: where (a JSON path) and why, in both languages. */
export const definitionProblemSchema = z.object({
  path: z.string(),
  message: localizedSchema,
});
export type DefinitionProblem = z.infer<typeof definitionProblemSchema>;

/** A study's current definition as designers download it. */
export const studyDefinitionAnswerSchema = z.object({
  studyId: z.number().int(),
  version: z.string(),
  /** SHA-256 of the stored document (hex): the audit trail records the same. */
  contentHash: z.string(),
  definition: z.unknown(),
});

/**
 * Go live: an administrator approves the design with an e-signature — their password, and their
 * authenticator code when they have two-factor sign-in (as a casebook signature).
 */
export const goLiveRequestSchema = signCasebookRequestSchema;

export const goLiveResponseSchema = z.object({
  status: z.literal('active'),
  version: z.string(),
  contentHash: z.string(),
});

export const definitionUploadResponseSchema = z.object({ version: z.string(), contentHash: z.string() });
