import { z } from 'zod';
import { pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { QUERY_TEXT_MAX } from './queries.ts';

/**
 * Medical coding (issue 51 item 2): verbatim adverse-event terms (the `adverseEvents` role's `term`)
 * and drug names (the `medications` role's `name`) coded against the study's loaded MedDRA and
 * WHODrug versions. A save that changes a verbatim codes it on an exact or synonym match (`auto`) or
 * puts it in the coder's queue (`pending`); the coder codes it (`manual`) or sends it back to the site
 * as a query (`query`).
 *
 *   GET  /api/studies/:studyId/coding/queue                             a page of verbatims (status, kind, site, search)
 *   GET  /api/studies/:studyId/coding/search                            dictionary terms with their hierarchy
 *   POST /api/studies/:studyId/coding/assignments/:assignmentId/code    code one verbatim (version check)
 *   POST /api/studies/:studyId/coding/assignments/:assignmentId/query   send it back to the site as a query
 *   GET  /api/studies/:studyId/coding/dictionaries                      the loaded versions
 *   POST /api/studies/:studyId/coding/dictionaries?kind=…               upload a distribution (zip) or the synonym CSV
 *   GET  /api/studies/:studyId/coding/dictionaries/:dictionaryId/upgrade   what switching to it changes
 *   POST /api/studies/:studyId/coding/dictionaries/:dictionaryId/upgrade   switch to it and recode
 */

export const codingKinds = ['meddra', 'whodrug'] as const;
export type CodingKindName = (typeof codingKinds)[number];
export const codingStatuses = ['auto', 'manual', 'pending', 'query'] as const;
export type CodingStatus = (typeof codingStatuses)[number];
export const CODING_PAGE_SIZES = [20, 50, 100] as const;
/** The largest dictionary upload (read whole and unzipped in memory: a MedDRA ASCII zip is ~15 MB). */
export const CODING_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

const text = z.object({ ko: z.string(), en: z.string() });
const level = z.object({ code: z.string(), name: text });

/** Where a code sits: MedDRA LLT → PT → HLT → HLGT → SOC (primary), or a drug and its ATC codes. */
export const codingPathSchema = z.union([
  z.object({
    kind: z.literal('meddra'),
    llt: level.extend({ current: z.boolean() }),
    pt: level,
    hlt: level,
    hlgt: level,
    soc: level,
  }),
  z.object({
    kind: z.literal('whodrug'),
    drug: level,
    atc: z.array(z.object({ code: z.string(), text: z.string() })),
  }),
]);
export type CodingPath = z.infer<typeof codingPathSchema>;

export const codingAssignmentSchema = z.object({
  id: z.number().int(),
  kind: z.enum(codingKinds),
  status: z.enum(codingStatuses),
  verbatim: z.string(),
  subjectPk: z.number().int(),
  screeningNumber: z.string(),
  siteId: z.number().int(),
  siteCode: z.string(),
  visitKey: z.string(),
  formKey: z.string(),
  /** `group[row].item`, the item the verbatim was written in. */
  itemPath: z.string(),
  path: codingPathSchema.nullable(),
  dictionaryVersion: z.string().nullable(),
  codedBy: z.string().nullable(),
  codedAt: z.string().nullable(),
  queryId: z.number().int().nullable(),
  version: z.number().int(),
});
export type CodingAssignment = z.infer<typeof codingAssignmentSchema>;

export const codingParamsSchema = z.object({ studyId: paramIdSchema });
export const codingAssignmentParamsSchema = z.object({ studyId: paramIdSchema, assignmentId: paramIdSchema });
export const codingDictionaryParamsSchema = z.object({ studyId: paramIdSchema, dictionaryId: paramIdSchema });

export const codingQueueQuerySchema = z.object({
  status: z.enum(codingStatuses).optional(),
  kind: z.enum(codingKinds).optional(),
  siteId: paramIdSchema.optional(),
  /** Part of the verbatim, case-insensitive. */
  search: z.string().trim().max(100).optional(),
  ...pageQueryShape(CODING_PAGE_SIZES, 20),
});
export type CodingQueueQuery = z.infer<typeof codingQueueQuerySchema>;

export const codingQueueResponseSchema = z.object({
  items: z.array(codingAssignmentSchema),
  ...pagedShape,
  counts: z.object({ auto: z.number(), manual: z.number(), pending: z.number(), query: z.number() }),
});
export type CodingQueueResponse = z.infer<typeof codingQueueResponseSchema>;

export const codingSearchQuerySchema = z.object({
  kind: z.enum(codingKinds),
  q: z.string().trim().min(1).max(100),
});
export const codingSearchResponseSchema = z.object({
  dictionaryVersion: z.string().nullable(),
  results: z.array(z.object({ code: z.string(), name: z.string(), path: codingPathSchema })),
});
export type CodingSearchResponse = z.infer<typeof codingSearchResponseSchema>;

export const codeAssignmentRequestSchema = z.strictObject({
  /** The assignment's version as read: another coder's change in between is 409. */
  version: z.number().int().min(1).max(1_000_000),
  /** An LLT code (meddra) or an 11-digit drug code (whodrug) of the active dictionary version. */
  code: z.string().regex(/^\d{8}$|^\d{11}$/),
});
export type CodeAssignmentRequest = z.infer<typeof codeAssignmentRequestSchema>;

export const codingQueryRequestSchema = z.strictObject({
  version: z.number().int().min(1).max(1_000_000),
  text: z.string().trim().min(1).max(QUERY_TEXT_MAX),
});
export type CodingQueryRequest = z.infer<typeof codingQueryRequestSchema>;
export const codingQueryResponseSchema = z.object({
  assignment: codingAssignmentSchema,
  queryId: z.number().int(),
});

export const codingDictionarySchema = z.object({
  id: z.number().int(),
  kind: z.enum(codingKinds),
  version: z.string(),
  fileName: z.string(),
  termCount: z.number().int(),
  active: z.boolean(),
  loadedAt: z.string(),
  loadedBy: z.string(),
});
export type CodingDictionary = z.infer<typeof codingDictionarySchema>;
export const codingDictionariesResponseSchema = z.object({
  dictionaries: z.array(codingDictionarySchema),
  synonyms: z.object({ count: z.number().int(), loadedAt: z.string().nullable() }),
});
export type CodingDictionariesResponse = z.infer<typeof codingDictionariesResponseSchema>;

export const codingUploadKinds = ['meddra', 'whodrug', 'synonyms'] as const;
export const codingUploadQuerySchema = z.object({
  kind: z.enum(codingUploadKinds),
  /** The version label; by default the distribution's own (meddra_release.asc / version.txt). */
  version: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[\p{L}\p{N} ._-]+$/u)
    .optional(),
});
export const codingUploadResponseSchema = z.object({
  dictionary: codingDictionarySchema.nullable(),
  synonyms: z.number().int().nullable(),
});

export const codingChangeKinds = [
  'llt_not_current',
  'code_missing',
  'pt_moved',
  'soc_moved',
  'atc_changed',
] as const;
export const codingUpgradePreviewSchema = z.object({
  from: z.string().nullable(),
  to: z.string(),
  unchanged: z.number().int(),
  changes: z.array(
    z.object({
      assignmentId: z.number().int(),
      verbatim: z.string(),
      screeningNumber: z.string(),
      change: z.enum(codingChangeKinds),
      before: codingPathSchema.nullable(),
      after: codingPathSchema.nullable(),
    }),
  ),
});
export type CodingUpgradePreview = z.infer<typeof codingUpgradePreviewSchema>;
export const codingUpgradeResponseSchema = z.object({
  version: z.string(),
  recoded: z.number().int(),
  sentToQueue: z.number().int(),
  autoCoded: z.number().int(),
});
