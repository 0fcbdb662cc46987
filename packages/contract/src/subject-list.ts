import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { pagedShape, pageQueryShape, sortOrderQuerySchema } from './ids.ts';
import { dateRangePresets } from './korea-time.ts';
import { codedValueSchema } from './localized.ts';
import { reasonSchema } from './reason.ts';
import type { SubjectStatus } from './subjects.ts';

/**
 * The full subject list (prototype-spec §2 "Subject list", §3 "Subject (list row)"): its filters as
 * query parameters, its rows, and its download. The server computes every column from the data.
 */

/** The spec's five status values (§4), as the list shows and filters them. */
export const subjectStatusValues = [
  'Screening',
  'Screening-failure',
  'Ongoing',
  'Complete',
  'Drop-out',
] as const;
export type SubjectStatusValue = (typeof subjectStatusValues)[number];

/** The stored status → the spec's value. */
export const subjectStatusValueOf: Record<SubjectStatus, SubjectStatusValue> = {
  screening: 'Screening',
  screening_failure: 'Screening-failure',
  ongoing: 'Ongoing',
  complete: 'Complete',
  dropout: 'Drop-out',
};

/** The spec's value → the stored status. */
export const subjectStatusOfValue = Object.fromEntries(
  Object.entries(subjectStatusValueOf).map(([status, value]) => [value, status]),
) as Record<SubjectStatusValue, SubjectStatus>;

/** Which date the period filter looks at. */
export const subjectListDateTypes = [
  'consentDate',
  'registrationDate',
  'firstVisitDate',
  'lastVisitDate',
] as const;
export type SubjectListDateType = (typeof subjectListDateTypes)[number];

/** The columns a list can be sorted by (every data column of §3; `number` is the position itself). */
export const subjectListSortKeys = [
  'subjectId',
  'site',
  'registrationNumber',
  'status',
  'gender',
  'age',
  'consentDate',
  'registrationDate',
  'firstVisitDate',
  'lastVisitDate',
  'lastVisitDateActual',
  'adverseReaction',
  'unresolvedQuery',
  'initialSignature',
  'registrationFailureReason',
  'dropoutReason',
] as const;
export type SubjectListSortKey = (typeof subjectListSortKeys)[number];

/** prototype-spec §9. */
export const SUBJECT_LIST_PAGE_SIZES = [10, 50, 100] as const;
export type SubjectListPageSize = (typeof SUBJECT_LIST_PAGE_SIZES)[number];

export const SUBJECT_SEARCH_MAX = 100;

const filterShape = {
  dateType: z.enum(subjectListDateTypes).default('registrationDate'),
  /** UTC+9 days, both inclusive. */
  start: calendarDateSchema.optional(),
  end: calendarDateSchema.optional(),
  /** Without dates: the last 3 or 6 months up to today (UTC+9), as the notice list counts them. */
  range: z.enum(dateRangePresets).default('all'),
  status: z.enum(['all', ...subjectStatusValues]).default('all'),
  /** Initial signature: true = done, false = pending. */
  signature: z.enum(['all', 'true', 'false']).default('all'),
  /** Screening number, randomization number, initials or site (code or name); case-insensitive. */
  search: z.string().trim().max(SUBJECT_SEARCH_MAX).optional(),
  sort: z.enum(subjectListSortKeys).default('subjectId'),
  order: sortOrderQuerySchema.default('asc'),
};

function startNotAfterEnd(filter: { start?: string | undefined; end?: string | undefined }): boolean {
  return !(filter.start && filter.end && filter.start > filter.end);
}
const startAfterEnd = { path: ['start'], error: 'start_after_end' };

export const subjectListFilterSchema = z.object(filterShape).refine(startNotAfterEnd, startAfterEnd);
export type SubjectListFilter = z.output<typeof subjectListFilterSchema>;

export const subjectListQuerySchema = z
  .object({
    ...filterShape,
    ...pageQueryShape(SUBJECT_LIST_PAGE_SIZES, 10),
  })
  .refine(startNotAfterEnd, startAfterEnd);
export type SubjectListQuery = z.input<typeof subjectListQuerySchema>;

export const subjectExportFormats = ['csv', 'xlsx'] as const;
export const subjectExportQuerySchema = z
  .object({ ...filterShape, format: z.enum(subjectExportFormats) })
  .refine(startNotAfterEnd, startAfterEnd);
export type SubjectExportQuery = z.input<typeof subjectExportQuerySchema>;

export const subjectListRowSchema = z.object({
  pk: z.number().int(),
  /** Position in the filtered, sorted list (1 on the first row of page 1). */
  number: z.number().int(),
  /** Screening number, `S{institution}-{sequence}`. */
  subjectId: z.string(),
  initials: z.string(),
  siteId: z.number().int(),
  /** Site code. */
  site: z.string(),
  /** The randomization number, once randomized. */
  registrationNumber: z.string().nullable(),
  status: z.enum(subjectStatusValues),
  gender: codedValueSchema.nullable(),
  age: z.number().nullable(),
  consentDate: z.string(),
  /** The day (UTC+9) the subject was registered in the system. */
  registrationDate: z.string(),
  firstVisitDate: z.string().nullable(),
  /** The last visit done (code = visit key), and its date in `lastVisitDateActual`. */
  lastVisitDate: codedValueSchema.nullable(),
  lastVisitDateActual: z.string().nullable(),
  /** Adverse events recorded. */
  adverseReaction: z.number().int(),
  /** Open and answered queries. */
  unresolvedQuery: z.number().int(),
  /** An invalidated signature is pending again. */
  initialSignature: z.enum(['done', 'pending']),
  registrationFailureReason: codedValueSchema.nullable(),
  dropoutReason: codedValueSchema.nullable(),
  /**
   * Whether this user may delete the subject (PI/CRC of its site, no freeze or lock over the subject,
   * its site or the study); data may still refuse it (409).
   */
  canDelete: z.boolean(),
  /** The PI broke the subject's blind (emergency unblinding); never the group itself. */
  unblinded: z.boolean(),
});
export type SubjectListRow = z.infer<typeof subjectListRowSchema>;

export const subjectListResponseSchema = z.object({
  subjects: z.array(subjectListRowSchema),
  ...pagedShape,
});
export type SubjectListResponse = z.infer<typeof subjectListResponseSchema>;

export const deleteSubjectRequestSchema = z.strictObject({
  reason: reasonSchema,
});
export type DeleteSubjectRequest = z.input<typeof deleteSubjectRequestSchema>;
