import { z } from 'zod';
import {
  bodyIdSchema,
  listedSubjectShape,
  pagedShape,
  pageQueryShape,
  paramIdSchema,
  siteSubjectFilterShape,
  sortOrderQuerySchema,
} from './ids.ts';
import { reasonSchema } from './reason.ts';

/**
 * Freezing and locking (product.md "Queries, SDV, freezing, locking"; issue 15), and the database-lock
 * readiness board (`/freezing/{id}`).
 *
 * A hold is a freeze or a lock at one of four levels — form, subject, site, study — and covers what
 * lies below it. A freeze (CRA, DM) stops data changes; queries, SDV and the investigator's signature
 * go on. A lock (DM only) stops everything; a signature given before it stays valid. A write refused
 * by a hold is a 423 whose code is `frozen` or `locked` and whose details carry `{ level }`, the hold
 * to lift first (a lock before a freeze, a wider level before a narrower one).
 *
 * Routes (all under /api/studies/:studyId):
 *   GET  /holds                   holds in force (holdListQuerySchema: for one subject — its own, its
 *                                 forms', its site's and the study's —, one site, or the whole study)
 *                                 → HoldListResponse
 *   POST /holds                   freeze or lock one target (placeHoldRequestSchema) → 201 HoldInForce
 *   POST /holds/lift              unfreeze or unlock one target (liftHoldRequestSchema) → LiftedHold
 *   POST /holds/bulk              freeze/lock or unfreeze/unlock selected subjects (bulkHoldRequestSchema),
 *                                 all or nothing, each change audited → BulkHoldResponse
 *   GET  /readiness/sites         the board's site rows and the study's totals → ReadinessSitesResponse
 *   GET  /readiness/subjects      the board's subject rows (readinessSubjectsQuerySchema)
 *                                 → ReadinessSubjectsResponse
 * Freezing what is frozen, locking what is locked, unfreezing what is not frozen and unlocking what is
 * not locked are 409 `hold_already_in_force` / `hold_not_in_force` with details `{ kind, level }`
 * (bulk: `{ subjectPks }`, the subjects that refused). A subject or site outside the reader's sites is
 * a 404; a user without the right (freeze: CRA, DM; lock: DM) a 403.
 */

export const holdLevels = ['form', 'subject', 'site', 'study'] as const;
export type HoldLevel = (typeof holdLevels)[number];

export const holdKinds = ['frozen', 'locked'] as const;
export type HoldKindValue = (typeof holdKinds)[number];

const keySchema = z.string().min(1).max(100);

/** What a hold covers. A form is one form of one visit of one subject. */
export const holdTargetSchema = z.discriminatedUnion('level', [
  z.strictObject({
    level: z.literal('form'),
    subjectPk: bodyIdSchema,
    visitKey: keySchema,
    formKey: keySchema,
  }),
  z.strictObject({ level: z.literal('subject'), subjectPk: bodyIdSchema }),
  z.strictObject({ level: z.literal('site'), siteId: bodyIdSchema }),
  z.strictObject({ level: z.literal('study') }),
]);
export type HoldTarget = z.infer<typeof holdTargetSchema>;

// ---------------------------------------------------------------------------------------------
// Requests

/** Freeze (`kind: 'frozen'`) or lock (`kind: 'locked'`) one target, with a reason (audited). */
export const placeHoldRequestSchema = z.strictObject({
  kind: z.enum(holdKinds),
  target: holdTargetSchema,
  reason: reasonSchema,
});
export type PlaceHoldRequest = z.input<typeof placeHoldRequestSchema>;

/** Unfreeze (`kind: 'frozen'`) or unlock (`kind: 'locked'`) one target, with a reason (audited). */
export const liftHoldRequestSchema = placeHoldRequestSchema;
export type LiftHoldRequest = z.input<typeof liftHoldRequestSchema>;

export const HOLD_BULK_MAX = 500;

/**
 * From the board: freeze, lock, unfreeze or unlock each selected subject (subject-level holds). A site
 * or the whole study is one target: use POST /holds with `level: 'site'` or `'study'`. All or nothing:
 * when any subject refuses the change (already held, not held, outside the reader's sites), nothing
 * changes.
 */
export const bulkHoldRequestSchema = z.strictObject({
  action: z.enum(['place', 'lift']),
  kind: z.enum(holdKinds),
  subjectPks: z.array(bodyIdSchema).min(1).max(HOLD_BULK_MAX),
  reason: reasonSchema,
});
export type BulkHoldRequest = z.input<typeof bulkHoldRequestSchema>;

export const bulkHoldResponseSchema = z.object({ changed: z.number().int() });
export type BulkHoldResponse = z.infer<typeof bulkHoldResponseSchema>;

/** One subject, one site, or neither for the whole study (both is a 400). */
export const holdListQuerySchema = z
  .object({
    subjectPk: paramIdSchema.optional(),
    siteId: paramIdSchema.optional(),
  })
  .refine((query) => query.subjectPk === undefined || query.siteId === undefined, {
    error: 'subject_or_site',
  });
export type HoldListQuery = z.input<typeof holdListQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

export const holdPersonSchema = z.object({ userId: z.number().int(), name: z.string() });

/** A freeze or lock in force. */
export const holdInForceSchema = z.object({
  id: z.number().int(),
  kind: z.enum(holdKinds),
  level: z.enum(holdLevels),
  /** Null at the study level. */
  siteId: z.number().int().nullable(),
  /** Site code, null at the study level. */
  site: z.string().nullable(),
  /** Set at the subject and form levels. */
  subjectPk: z.number().int().nullable(),
  /** Screening number, set at the subject and form levels. */
  subjectId: z.string().nullable(),
  /** Set at the form level. */
  visitKey: z.string().nullable(),
  formKey: z.string().nullable(),
  placedBy: holdPersonSchema,
  /** ISO instant; shown in UTC+9. */
  placedAt: z.string(),
  reason: z.string(),
});
export type HoldInForce = z.infer<typeof holdInForceSchema>;

/** A hold as it was lifted. */
export const liftedHoldSchema = holdInForceSchema.extend({
  liftedBy: holdPersonSchema,
  liftedAt: z.string(),
  liftReason: z.string(),
});
export type LiftedHold = z.infer<typeof liftedHoldSchema>;

/** What the reader may do with holds where the list was asked for (subject, site or study). */
export const holdAbilitiesSchema = z.object({
  /** Freeze and unfreeze (CRA on the sites they monitor, DM). */
  freeze: z.boolean(),
  /** Lock and unlock (DM). */
  lock: z.boolean(),
});
export type HoldAbilities = z.infer<typeof holdAbilitiesSchema>;

export const holdListResponseSchema = z.object({
  holds: z.array(holdInForceSchema),
  abilities: holdAbilitiesSchema,
});
export type HoldListResponse = z.infer<typeof holdListResponseSchema>;

/**
 * The strongest hold over a thing, as marks on the overview's cells and the board's rows show it: a
 * lock wins over a freeze; `level` names where it was placed. Null when nothing holds it.
 */
export const holdMarkSchema = z.object({ kind: z.enum(holdKinds), level: z.enum(holdLevels) }).nullable();
export type HoldMark = z.infer<typeof holdMarkSchema>;

// ---------------------------------------------------------------------------------------------
// The readiness board

/**
 * What still stands between a subject's data and a lock. A subject is ready when every count is zero
 * and its casebook is signed with a signature in force.
 * - openQueries, answeredQueries: queries on the subject in those states.
 * - formsMissingRequired: saved forms whose required items are not all entered (the overview's dash
 *   icon; a form that also has an open query shows it once that query is resolved).
 * - formsSdvIncomplete: saved forms whose items in the SDV plan are not all verified (sdv.ts).
 * - overdueVisits: visits whose window has closed without a visit date (as the subject alarms count).
 * - signature: the casebook's signature state (signatures.ts); anything but `signed` stands in the way.
 */
const readinessCountsShape = {
  openQueries: z.number().int(),
  answeredQueries: z.number().int(),
  formsMissingRequired: z.number().int(),
  formsSdvIncomplete: z.number().int(),
  overdueVisits: z.number().int(),
};

export const readinessSubjectRowSchema = z.object({
  ...listedSubjectShape,
  ...readinessCountsShape,
  signature: z.enum(['none', 'signed', 'invalidated']),
  ready: z.boolean(),
  /** The strongest hold over the subject (its own, its site's or the study's). */
  hold: holdMarkSchema,
});
export type ReadinessSubjectRow = z.infer<typeof readinessSubjectRowSchema>;

export const readinessSiteRowSchema = z.object({
  siteId: z.number().int(),
  site: z.string(),
  siteName: z.string(),
  subjects: z.number().int(),
  readySubjects: z.number().int(),
  ...readinessCountsShape,
  /** Subjects whose casebook is not signed (never signed, or the signature invalidated). */
  unsignedCasebooks: z.number().int(),
  /** Of those, the ones whose signature was invalidated by a later change. */
  invalidatedSignatures: z.number().int(),
  /** The strongest hold over the site (its own or the study's). */
  hold: holdMarkSchema,
  /** Subjects whose strongest hold (their own, the site's or the study's) is a freeze, or a lock. */
  frozenSubjects: z.number().int(),
  lockedSubjects: z.number().int(),
});
export type ReadinessSiteRow = z.infer<typeof readinessSiteRowSchema>;

export const readinessSitesResponseSchema = z.object({
  sites: z.array(readinessSiteRowSchema),
  /** The sums over the listed sites, and the study's own hold. */
  study: readinessSiteRowSchema.omit({ siteId: true, site: true, siteName: true }),
  abilities: holdAbilitiesSchema,
});
export type ReadinessSitesResponse = z.infer<typeof readinessSitesResponseSchema>;

export const readinessSortKeys = [
  'subjectId',
  'site',
  'openQueries',
  'answeredQueries',
  'formsMissingRequired',
  'formsSdvIncomplete',
  'overdueVisits',
  'signature',
  'ready',
] as const;
export type ReadinessSortKey = (typeof readinessSortKeys)[number];

export const READINESS_PAGE_SIZES = [10, 50, 100] as const;
export const readinessStateFilters = ['all', 'ready', 'notReady'] as const;
export const readinessHoldFilters = ['all', 'none', 'frozen', 'locked'] as const;

export const readinessSubjectsQuerySchema = z.object({
  ...siteSubjectFilterShape,
  state: z.enum(readinessStateFilters).default('all'),
  /** frozen: the strongest hold is a freeze; locked: a lock; none: nothing holds the subject. */
  hold: z.enum(readinessHoldFilters).default('all'),
  sort: z.enum(readinessSortKeys).default('subjectId'),
  order: sortOrderQuerySchema.default('asc'),
  ...pageQueryShape(READINESS_PAGE_SIZES, 10),
});
export type ReadinessSubjectsQuery = z.input<typeof readinessSubjectsQuerySchema>;

export const readinessSubjectsResponseSchema = z.object({
  subjects: z.array(readinessSubjectRowSchema),
  ...pagedShape,
  abilities: holdAbilitiesSchema,
});
export type ReadinessSubjectsResponse = z.infer<typeof readinessSubjectsResponseSchema>;

/** The 423 a hold answers with: `{ error: { code: 'frozen' | 'locked', message, details: { level } } }`. */
export const holdRefusalDetailsSchema = z.object({ level: z.enum(holdLevels) });
export type HoldRefusalDetails = z.infer<typeof holdRefusalDetailsSchema>;
