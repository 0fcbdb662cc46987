import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { labFlags } from './flag-lab-result.ts';
import { bodyIdSchema, pagedShape, pageQueryShape, paramIdSchema, subjectSearchQuerySchema } from './ids.ts';

/**
 * Laboratory normal ranges (issue 17 item 3): per site and lab test of the labTest form, a unit and a
 * low and/or high limit, optionally only for one sex and an age band, in force from a date. DM and ADMIN
 * keep them (`lab.manage`, audited with before/after); every study member reads those of their sites.
 *
 * A result is flagged `H` above the high limit, `L` below the low limit, and `N` otherwise: a result
 * equal to a limit is normal. The range that applies to a result is the site's newest one in force on
 * the specimen date (not retired) whose sex and age limits fit the subject; a range with a sex limit is
 * preferred to one without.
 *
 * Routes (all under /api/studies/:studyId):
 *   GET    /lab-ranges                 the ranges of the reader's sites (labRangesQuerySchema) → LabRangesResponse
 *   POST   /lab-ranges                 DM, ADMIN (labRangeRequestSchema) → LabRange (201)
 *   PUT    /lab-ranges/:rangeId        DM, ADMIN (labRangeRequestSchema) → LabRange
 *   POST   /lab-ranges/:rangeId/retire DM, ADMIN: no longer applied (kept for the audit trail) → LabRange
 *   GET    /lab-results                results out of range or clinically significant (labResultsQuerySchema)
 *                                      → LabResultsResponse
 * Refusals: 422 `unknown_lab_test` (not a numeric test of the labTest form), 422 `lab_range_invalid`
 * (no limit, low above high, age band reversed), 409 `lab_range_retired` (changing a retired range).
 */

export const labSexes = ['M', 'F'] as const;
export type LabSex = (typeof labSexes)[number];

const LIMIT_MAX = 1_000_000;
const limitSchema = z.number().finite().min(-LIMIT_MAX).max(LIMIT_MAX).nullable();
const ageSchema = z.number().int().min(0).max(150).nullable();

export const labRangeRequestSchema = z.strictObject({
  siteId: bodyIdSchema,
  /** The lab test's key in the labTest form (`wbc`, `ast`…): its result item is `<key>Result`. */
  testKey: z.string().trim().min(1).max(50),
  unit: z.string().trim().min(1).max(30),
  low: limitSchema,
  high: limitSchema,
  sex: z.enum(labSexes).nullable(),
  ageMin: ageSchema,
  ageMax: ageSchema,
  effectiveFrom: calendarDateSchema,
});
export type LabRangeRequest = z.infer<typeof labRangeRequestSchema>;

export const labRangeSchema = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  site: z.string(),
  testKey: z.string(),
  unit: z.string(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  sex: z.enum(labSexes).nullable(),
  ageMin: z.number().int().nullable(),
  ageMax: z.number().int().nullable(),
  effectiveFrom: z.string(),
  /** Retired ranges are listed for the record and never applied. */
  retired: z.boolean(),
  updatedBy: z.string(),
  updatedAt: z.string(),
});
export type LabRange = z.infer<typeof labRangeSchema>;

export const labRangesQuerySchema = z.object({
  siteId: paramIdSchema.optional(),
  /** Retired ranges too. */
  retired: z.enum(['true', 'false']).default('false'),
});
export type LabRangesQuery = z.input<typeof labRangesQuerySchema>;

export const labRangesResponseSchema = z.object({
  ranges: z.array(labRangeSchema),
  /** The reader may add, change and retire ranges (DM, ADMIN). */
  canManage: z.boolean(),
});
export type LabRangesResponse = z.infer<typeof labRangesResponseSchema>;

/** The range the labTest form applies to one test, as the form read carries it (the browser flags with it). */
export const appliedLabRangeSchema = z.object({
  testKey: z.string(),
  unit: z.string(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});
export type AppliedLabRange = z.infer<typeof appliedLabRangeSchema>;

/** A range fitting the subject with the day it took effect (`flag-lab-result.ts` `DatedLabRange`). */
export const datedLabRangeSchema = appliedLabRangeSchema.extend({
  id: z.number().int(),
  effectiveFrom: z.string(),
  sexLimited: z.boolean(),
});

/** out: H or L; significant: judged clinically significant (CS) whatever the range says. */
export const labResultFlagFilters = ['all', 'H', 'L', 'CS'] as const;
export const LAB_RESULT_PAGE_SIZES = [10, 50, 100] as const;

export const labResultsQuerySchema = z.object({
  siteId: paramIdSchema.optional(),
  /** Screening number, or part of it; case-insensitive. */
  subject: subjectSearchQuerySchema.optional(),
  testKey: z.string().trim().max(50).optional(),
  flag: z.enum(labResultFlagFilters).default('all'),
  ...pageQueryShape(LAB_RESULT_PAGE_SIZES, 10),
});
export type LabResultsQuery = z.input<typeof labResultsQuerySchema>;

/** The listing as a file: the page's filters without the paging, and the format. */
export const labResultsDownloadQuerySchema = labResultsQuerySchema
  .omit({ page: true, size: true })
  .extend({ format: z.enum(['csv', 'xlsx']) });

export const labResultRowSchema = z.object({
  subjectPk: z.number().int(),
  subjectId: z.string(),
  siteId: z.number().int(),
  site: z.string(),
  visitKey: z.string(),
  testKey: z.string(),
  specimenDate: z.string().nullable(),
  value: z.number(),
  unit: z.string().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  flag: z.enum(labFlags).nullable(),
  normal: z.string().nullable(),
  significance: z.string().nullable(),
  /** Open or answered queries on the result. */
  openQueryCount: z.number().int(),
});
export type LabResultRow = z.infer<typeof labResultRowSchema>;

export const labResultsResponseSchema = z.object({
  results: z.array(labResultRowSchema),
  ...pagedShape,
});
export type LabResultsResponse = z.infer<typeof labResultsResponseSchema>;
