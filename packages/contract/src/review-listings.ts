import { z } from 'zod';
import { bodyIdSchema, pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { localizedSchema } from './localized.ts';
import { QUERY_BULK_MAX, QUERY_TEXT_MAX } from './queries.ts';

/**
 * Review listings and bulk queries (issue 50 item 4): a data manager or a monitor reads one form of
 * the study across subjects, one row per subject-visit form instance (or per row of a repeating
 * group: the per-form export's tables, `form` or `form__group`), marks rows reviewed and raises one
 * manual query per chosen item with one text.
 *
 *   GET  /api/studies/:studyId/review-listings                       the listable tables of the definition
 *   GET  /api/studies/:studyId/review-listings/:table                a page of the listing (filters, sort)
 *   GET  /api/studies/:studyId/review-listings/:table/export         the filtered listing as CSV or XLSX (audited)
 *   POST /api/studies/:studyId/review-listings/:table/review         mark form instances reviewed
 *   POST /api/studies/:studyId/review-listings/bulk-queries          one query per target, all or nothing
 *
 * A review mark keeps the form instance's version at review: when the data change the version moves
 * on and the row reads "changed since review" (compared at read time; the save path does nothing).
 */

export const REVIEW_LISTING_PAGE_SIZES = [20, 50, 100] as const;
/** How many form instances one review request marks at most (a page is at most 100 rows). */
export const REVIEW_MARK_MAX = 500;

export const reviewStates = ['not_reviewed', 'reviewed', 'changed'] as const;
export type ReviewState = (typeof reviewStates)[number];

/** Sorts by a fixed column, or `item:<key>` by one of the table's items (its stored value). */
export const reviewListingFixedSorts = ['subject', 'visit', 'savedAt'] as const;
const sortSchema = z.union([
  z.enum(reviewListingFixedSorts),
  z.string().regex(/^item:[A-Za-z][A-Za-z0-9_]{0,99}$/),
]);

/** A table name: a form key, or `form__group` for a repeating group. */
export const reviewTableNameSchema = z
  .string()
  .min(1)
  .max(201)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/);

export const reviewListingParamsSchema = z.object({ studyId: paramIdSchema, table: reviewTableNameSchema });

export const reviewListingFilterShape = {
  siteId: paramIdSchema.optional(),
  visitKey: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
  review: z.enum(reviewStates).optional(),
  /** Part of the screening number, case-insensitive. */
  search: z.string().trim().max(50).optional(),
  sort: sortSchema.default('subject'),
  dir: z.enum(['asc', 'desc']).default('asc'),
};

export const reviewListingQuerySchema = z.object({
  ...reviewListingFilterShape,
  ...pageQueryShape(REVIEW_LISTING_PAGE_SIZES, 50),
});
export type ReviewListingQuery = z.input<typeof reviewListingQuerySchema>;

/** The export: the page's filters and sort without the paging; the items shown (every item when absent). */
export const reviewListingExportQuerySchema = z.object({
  ...reviewListingFilterShape,
  /** Comma-separated item keys of the columns shown. */
  columns: z.string().max(4000).optional(),
  format: z.enum(['csv', 'xlsx']).default('csv'),
});
export type ReviewListingExportQuery = z.input<typeof reviewListingExportQuerySchema>;

export const reviewTableSchema = z.object({
  name: z.string(),
  formKey: z.string(),
  formLabel: localizedSchema,
  /** The repeating group's key; null for the form's plain items. */
  groupKey: z.string().nullable(),
  groupLabel: localizedSchema.nullable(),
});
export type ReviewTable = z.infer<typeof reviewTableSchema>;

export const reviewTablesResponseSchema = z.object({ tables: z.array(reviewTableSchema) });
export type ReviewTablesResponse = z.infer<typeof reviewTablesResponseSchema>;

export const reviewColumnSchema = z.object({
  key: z.string(),
  label: localizedSchema,
  /** The item's type in the study model (text, number, singleChoice, …). */
  type: z.string(),
});
export type ReviewColumn = z.infer<typeof reviewColumnSchema>;

/** A cell as shown: a coded value as its label in the reader's language; null when empty. */
export const reviewCellSchema = z.string().nullable();

export const reviewRowSchema = z.object({
  formInstanceId: z.number().int(),
  subjectPk: z.number().int(),
  screeningNumber: z.string(),
  siteId: z.number().int(),
  siteCode: z.string(),
  visitKey: z.string(),
  visitLabel: localizedSchema,
  /** 0-based row of the repeating group; null for a table of plain items. */
  row: z.number().int().nullable(),
  formStatus: z.string(),
  /** The form instance's version now. */
  version: z.number().int(),
  savedAt: z.string(),
  review: z.enum(reviewStates),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  /** By item key (the table's columns). */
  cells: z.record(z.string(), reviewCellSchema),
});
export type ReviewRow = z.infer<typeof reviewRowSchema>;

export const reviewListingResponseSchema = z.object({
  table: reviewTableSchema,
  columns: z.array(reviewColumnSchema),
  visits: z.array(z.object({ key: z.string(), label: localizedSchema })),
  sites: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
  rows: z.array(reviewRowSchema),
  /** Whether the reader may mark rows reviewed and raise queries (the same roles: CRA and DM). */
  mayReview: z.boolean(),
  mayRaiseQueries: z.boolean(),
  ...pagedShape,
});
export type ReviewListingResponse = z.infer<typeof reviewListingResponseSchema>;

export const reviewMarkRequestSchema = z.strictObject({
  formInstanceIds: z.array(bodyIdSchema).min(1).max(REVIEW_MARK_MAX),
});
export type ReviewMarkRequest = z.input<typeof reviewMarkRequestSchema>;

export const reviewMarkResponseSchema = z.object({ marked: z.number().int() });
export type ReviewMarkResponse = z.infer<typeof reviewMarkResponseSchema>;

export const bulkQueryTargetSchema = z.strictObject({
  subjectPk: bodyIdSchema,
  visitKey: z.string().min(1).max(100),
  formKey: z.string().min(1).max(100),
  /** The item's path in the form: `item`, or `group[row].item` for a column of a repeating row. */
  itemPath: z.string().min(1).max(200),
});
export type BulkQueryTarget = z.infer<typeof bulkQueryTargetSchema>;

export const bulkRaiseQueriesRequestSchema = z.strictObject({
  targets: z.array(bulkQueryTargetSchema).min(1).max(QUERY_BULK_MAX),
  text: z.string().trim().min(1).max(QUERY_TEXT_MAX),
});
export type BulkRaiseQueriesRequest = z.input<typeof bulkRaiseQueriesRequestSchema>;

export const bulkRaiseQueriesResponseSchema = z.object({ queryIds: z.array(z.number().int()) });
export type BulkRaiseQueriesResponse = z.infer<typeof bulkRaiseQueriesResponseSchema>;
