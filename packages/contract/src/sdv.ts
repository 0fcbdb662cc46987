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
import { localizedSchema } from './localized.ts';
import { reasonSchema } from './reason.ts';

/**
 * Source data verification (product.md "Queries, SDV, freezing, locking"; issue 15): a monitor (CRA, on
 * the sites they monitor) marks saved items as checked against the source. The unit of SDV is one
 * stored item of one form of one visit of one subject: a plain item by its key, a repeating group
 * (adverse events, drugs…) as a whole by the group's key — the keys of FormDataResponse.values.
 * Derived values are computed, not transcribed, and are never verified.
 *
 * A mark records who verified and when, and the value verified. When the value changes afterwards the
 * mark is reset in the same transaction (audited) and the item shows "changed since verified" until it
 * is verified again.
 *
 * The SDV plan of the study (DM, ADMIN) says which items count: `all` items, or only `critical` items
 * (flagged in the study definition: eligibility, primary endpoint, AE seriousness) plus every item of
 * the first `firstSubjectsPerSite` subjects of each site by registration order. Progress is measured
 * against the plan: a form is SDV-complete when every entered item of it in the plan is verified, a
 * visit when its saved forms are, a subject when its visits are; sites count items and forms.
 *
 * Routes (all under /api/studies/:studyId/sdv):
 *   GET  /plan                 the plan → SdvPlanResponse (a study without one: all items, 0 subjects)
 *   PUT  /plan                 DM, ADMIN (sdvPlanRequestSchema) → SdvPlanResponse; unchanged → 409
 *                              `sdv_plan_unchanged`
 *   GET  /sites                progress per site over the reader's sites, and the study → SdvSitesResponse
 *   GET  /subjects             progress per subject (sdvSubjectsQuerySchema) → SdvSubjectsResponse
 *   GET  /subjects/:subjectPk  one subject by visit → form → SdvSubjectResponse
 *   GET  /next                 the next form to verify in the reader's sites (sdvNextQuerySchema)
 *                              → SdvNextResponse
 *   POST /verify               verify items of one form (verifyItemsRequestSchema) → FormSdv
 *   POST /verify-form          verify every unverified item of one form in the plan → FormSdv
 *   POST /verify-visit         the same for every saved form of one visit → VerifyVisitResponse
 *   POST /unverify             withdraw marks, with a reason (unverifyItemsRequestSchema) → FormSdv
 * Refused transitions are 409: `sdv_already_verified` (details `{ itemKeys }`), `sdv_not_verified`
 * (`{ itemKeys }`: un-verifying what carries no mark), `sdv_item_not_entered` (`{ itemKeys }`: no saved
 * value, or a derived one), `sdv_nothing_to_verify` (verify form/visit with nothing left in the plan).
 * An item key the form does not have is a 422 `unknown_item`. Under a lock every SDV write is a 423
 * `locked`; a freeze allows SDV.
 */

export const sdvPlanModes = ['all', 'critical'] as const;
export type SdvPlanMode = (typeof sdvPlanModes)[number];

/**
 * unverified: never verified (or the mark was withdrawn); verified: the saved value is the one verified;
 * changed: verified once, the value changed since (to be verified again).
 */
export const sdvItemStates = ['unverified', 'verified', 'changed'] as const;
export type SdvItemState = (typeof sdvItemStates)[number];

/**
 * notRequired: nothing of the form is in the plan (not saved, or no entered item in the plan);
 * notStarted: no item in the plan verified; partial: some; complete: all.
 */
export const sdvFormStates = ['notRequired', 'notStarted', 'partial', 'complete'] as const;
export type SdvFormState = (typeof sdvFormStates)[number];

export const SDV_FIRST_SUBJECTS_MAX = 1000;
export const SDV_ITEMS_MAX = 500;

const keySchema = z.string().min(1).max(100);

// ---------------------------------------------------------------------------------------------
// The plan

export const sdvPlanRequestSchema = z.strictObject({
  mode: z.enum(sdvPlanModes),
  /** With `critical`: the first N subjects of each site (by registration order) are verified in full. */
  firstSubjectsPerSite: z.number().int().min(0).max(SDV_FIRST_SUBJECTS_MAX),
});
export type SdvPlanRequest = z.input<typeof sdvPlanRequestSchema>;

export const sdvPlanResponseSchema = z.object({
  mode: z.enum(sdvPlanModes),
  firstSubjectsPerSite: z.number().int(),
  /** The critical items of the definition (the `critical` flag), form by form, in definition order. */
  criticalItems: z.array(
    z.object({
      formKey: z.string(),
      /** The stored key: the item's, or its repeating group's. */
      itemKey: z.string(),
      formLabel: localizedSchema,
      itemLabel: localizedSchema,
    }),
  ),
  /** Null while the study has never set a plan (the default applies). */
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** The reader may change the plan (DM, ADMIN). */
  canEdit: z.boolean(),
});
export type SdvPlanResponse = z.infer<typeof sdvPlanResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Progress

/**
 * Counts against the plan. `plannedItems`: entered items in the plan; `verifiedItems`: of those,
 * verified with the value still saved; `changedItems`: of those, changed since verified.
 * `plannedForms`: saved forms with at least one planned item; `completeForms`: of those, every planned
 * item verified. `percent`: verifiedItems / plannedItems × 100, rounded down; null with nothing planned.
 */
export const sdvCountsSchema = z.object({
  plannedItems: z.number().int(),
  verifiedItems: z.number().int(),
  changedItems: z.number().int(),
  plannedForms: z.number().int(),
  completeForms: z.number().int(),
  percent: z.number().int().nullable(),
});
export type SdvCounts = z.infer<typeof sdvCountsSchema>;

export const sdvSiteRowSchema = z.object({
  siteId: z.number().int(),
  site: z.string(),
  siteName: z.string(),
  subjects: z.number().int(),
  /** Subjects with every planned form complete (a subject with nothing planned counts as complete). */
  completeSubjects: z.number().int(),
  counts: sdvCountsSchema,
});
export type SdvSiteRow = z.infer<typeof sdvSiteRowSchema>;

export const sdvSitesResponseSchema = z.object({
  sites: z.array(sdvSiteRowSchema),
  /** Sums over the listed sites. */
  study: sdvSiteRowSchema.omit({ siteId: true, site: true, siteName: true }),
  plan: z.object({ mode: z.enum(sdvPlanModes), firstSubjectsPerSite: z.number().int() }),
});
export type SdvSitesResponse = z.infer<typeof sdvSitesResponseSchema>;

export const sdvSubjectStateFilters = ['all', 'incomplete', 'complete', 'changed'] as const;
export const sdvSubjectSortKeys = [
  'subjectId',
  'site',
  'percent',
  'plannedItems',
  'verifiedItems',
  'changedItems',
] as const;
export type SdvSubjectSortKey = (typeof sdvSubjectSortKeys)[number];
export const SDV_PAGE_SIZES = [10, 50, 100] as const;

export const sdvSubjectsQuerySchema = z.object({
  ...siteSubjectFilterShape,
  /** incomplete: some planned item unverified; complete: none; changed: some item changed since verified. */
  state: z.enum(sdvSubjectStateFilters).default('all'),
  sort: z.enum(sdvSubjectSortKeys).default('subjectId'),
  order: sortOrderQuerySchema.default('asc'),
  ...pageQueryShape(SDV_PAGE_SIZES, 10),
});
export type SdvSubjectsQuery = z.input<typeof sdvSubjectsQuerySchema>;

export const sdvSubjectRowSchema = z.object({
  ...listedSubjectShape,
  /** all: among the first N of its site (or the plan is `all`), every item counts; critical: critical items only. */
  planScope: z.enum(sdvPlanModes),
  counts: sdvCountsSchema,
});
export type SdvSubjectRow = z.infer<typeof sdvSubjectRowSchema>;

export const sdvSubjectsResponseSchema = z.object({
  subjects: z.array(sdvSubjectRowSchema),
  ...pagedShape,
  /** The reader may verify (CRA) somewhere in the listed sites. */
  canVerify: z.boolean(),
});
export type SdvSubjectsResponse = z.infer<typeof sdvSubjectsResponseSchema>;

export const sdvFormRowSchema = z.object({
  formKey: z.string(),
  label: localizedSchema,
  state: z.enum(sdvFormStates),
  counts: sdvCountsSchema,
});

export const sdvVisitRowSchema = z.object({
  visitKey: z.string(),
  label: localizedSchema,
  /** complete when every saved form with planned items is complete; notRequired when none has any. */
  state: z.enum(sdvFormStates),
  counts: sdvCountsSchema,
  /** Every form of the visit in the definition, saved or not. */
  forms: z.array(sdvFormRowSchema),
});

export const sdvFormRefSchema = z.object({
  subjectPk: z.number().int(),
  subjectId: z.string(),
  visitKey: z.string(),
  formKey: z.string(),
});
export type SdvFormRef = z.infer<typeof sdvFormRefSchema>;

export const sdvSubjectResponseSchema = z.object({
  subject: sdvSubjectRowSchema,
  visits: z.array(sdvVisitRowSchema),
  /** The first form of this subject (definition order) with planned items left to verify, or null. */
  nextForm: sdvFormRefSchema.nullable(),
  canVerify: z.boolean(),
});
export type SdvSubjectResponse = z.infer<typeof sdvSubjectResponseSchema>;

export const sdvNextQuerySchema = z.object({ siteId: paramIdSchema.optional() });
export type SdvNextQuery = z.input<typeof sdvNextQuerySchema>;

/** The monitor's path: the first incomplete subject (site, then screening number), its first incomplete form. */
export const sdvNextResponseSchema = z.object({ next: sdvFormRefSchema.nullable() });
export type SdvNextResponse = z.infer<typeof sdvNextResponseSchema>;

// ---------------------------------------------------------------------------------------------
// One form's marks (also in FormDataResponse.sdv)

export const sdvItemSchema = z.object({
  state: z.enum(sdvItemStates),
  /** Counted by the plan for this subject (and entered). */
  inPlan: z.boolean(),
  /** Who verified and when (for `changed`: the verification the change undid); null when unverified. */
  verifiedBy: z.object({ userId: z.number().int(), name: z.string() }).nullable(),
  verifiedAt: z.string().nullable(),
  /** For `changed`: when the value changed after verification. */
  changedAt: z.string().nullable(),
});
export type SdvItem = z.infer<typeof sdvItemSchema>;

export const formSdvSchema = z.object({
  state: z.enum(sdvFormStates),
  counts: sdvCountsSchema,
  /** Every entered item of the form that may be verified (stored key → its state); derived ones are absent. */
  items: z.record(z.string(), sdvItemSchema),
});
export type FormSdv = z.infer<typeof formSdvSchema>;

// ---------------------------------------------------------------------------------------------
// Marking

const formTargetShape = { subjectPk: bodyIdSchema, visitKey: keySchema, formKey: keySchema };

export const verifyItemsRequestSchema = z.strictObject({
  ...formTargetShape,
  itemKeys: z.array(keySchema).min(1).max(SDV_ITEMS_MAX),
});
export type VerifyItemsRequest = z.input<typeof verifyItemsRequestSchema>;

export const verifyFormRequestSchema = z.strictObject(formTargetShape);
export type VerifyFormRequest = z.input<typeof verifyFormRequestSchema>;

export const verifyVisitRequestSchema = z.strictObject({ subjectPk: bodyIdSchema, visitKey: keySchema });
export type VerifyVisitRequest = z.input<typeof verifyVisitRequestSchema>;

export const verifyVisitResponseSchema = z.object({
  /** Items verified by this call. */
  verified: z.number().int(),
  /** Forms of the visit with items verified by this call. */
  forms: z.number().int(),
});
export type VerifyVisitResponse = z.infer<typeof verifyVisitResponseSchema>;

export const unverifyItemsRequestSchema = z.strictObject({
  ...formTargetShape,
  itemKeys: z.array(keySchema).min(1).max(SDV_ITEMS_MAX),
  reason: reasonSchema,
});
export type UnverifyItemsRequest = z.input<typeof unverifyItemsRequestSchema>;
