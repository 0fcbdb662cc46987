import { z } from 'zod';

/** The largest id a PostgreSQL `integer` column holds (2^31 − 1). */
export const MAX_ID = 2_147_483_647;

/**
 * An id in a body: a JSON number, a positive integer that fits an `integer` column. Anything larger
 * would reach the database and fail there (a 500); here it is a 400.
 */
export const bodyIdSchema = z.number().int().positive().max(MAX_ID);

/**
 * A positive whole number written the one canonical way: decimal digits, no sign, no leading zero,
 * no spaces, no exponent, no fraction, no hex. `Number()` alone would read `0x13`, `1.6e1`, `16.0` and
 * ` 16` as real numbers, so the text is checked before it is converted.
 */
const canonicalDecimal = z.string().regex(/^[1-9][0-9]{0,9}$/, { error: 'not_canonical_number' });

/** An id in a path or query parameter: canonical decimal text, read as a number ≤ 2^31 − 1. */
export const paramIdSchema = canonicalDecimal.transform(Number).pipe(z.number().max(MAX_ID));

/** A list's sort direction, in the API's query strings and the browser's URLs alike. */
export const sortOrders = ['asc', 'desc'] as const;
export type SortOrder = (typeof sortOrders)[number];

/** A list's sort direction in a query string; each list chooses its own default. */
export const sortOrderQuerySchema = z.enum(sortOrders);

/**
 * A subject looked for by number in a list's query string: the number or part of it, trimmed; the
 * server matches it case-insensitively against the numbers that list names (each list says which).
 */
export const subjectSearchQuerySchema = z.string().trim().max(100);

/**
 * The filters the per-subject boards share (the SDV page and the readiness board, as the web's
 * `SiteSubjectFilterPanel` shares their panel): one site, and a subject by screening or randomization
 * number, or part of it, case-insensitive.
 */
export const siteSubjectFilterShape = {
  siteId: paramIdSchema.optional(),
  subject: subjectSearchQuerySchema.optional(),
};

/**
 * The five fields a per-subject board's row opens with (the SDV progress and the readiness board; the
 * server's `presentListedSubject` fills them), so both boards name a subject the same way: `subjectPk`
 * the row, `subjectId` the screening number, `registrationNumber` the randomization number (null before
 * randomization), `site` the site's code.
 */
export const listedSubjectShape = {
  subjectPk: z.number().int(),
  subjectId: z.string(),
  registrationNumber: z.string().nullable(),
  siteId: z.number().int(),
  site: z.string(),
};

/** A page number in a query string (canonical decimal, 1…100,000). */
export const pageQuerySchema = canonicalDecimal.transform(Number).pipe(z.number().max(100_000));

/** A page size in a query string: canonical decimal text, one of `sizes`. */
export function pageSizeQuerySchema<const Size extends number>(sizes: readonly Size[]) {
  return canonicalDecimal.transform(Number).pipe(z.literal(sizes));
}

/**
 * The page and size every paged list's query string takes: the first page unless another is asked
 * for, and one of the list's `sizes`, `defaultSize` unless another is asked for.
 */
export function pageQueryShape<const Size extends number>(
  sizes: readonly Size[],
  defaultSize: NoInfer<Size>,
) {
  return { page: pageQuerySchema.default(1), size: pageSizeQuerySchema(sizes).default(defaultSize) };
}

/**
 * What a paged list answers beside its rows, for the pager: `total` rows match the filters over every
 * page, `page` is the page shown and `size` its size.
 */
export const pagedShape = { total: z.number().int(), page: z.number().int(), size: z.number().int() };
