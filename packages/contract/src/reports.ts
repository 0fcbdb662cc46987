import { z } from 'zod';
import { pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { codedValueSchema, localizedSchema } from './localized.ts';
import { queryAgeBuckets } from './queries.ts';

/**
 * Standard reports (issue 17 item 1): `GET /api/studies/:studyId/reports/:report` answers one report
 * over the reader's sites, with the filters below as query parameters (listings paged);
 * `GET …/:report/download?format=csv|xlsx` the same report as a file (audited).
 *
 *   enrollment          screened, screening failures (by reason), randomized per site and month,
 *                       against each site's target (set by DM/ADMIN: `PUT …/sites/:siteId/enrollment-target`;
 *                       unset, the study parameter `enrollmentTargetPerSite`)
 *   missingForms        expected forms of visits done or overdue that are empty or incomplete
 *   queryAging          open/answered queries by age bucket and site, median days to answer and close
 *   protocolDeviations  out-of-window visits, "eligible" while a criterion fails, device applied on
 *                       another day than V2, missing pregnancy test for women of childbearing potential
 *   adverseEvents       every adverse event per subject (SAE flagged) and events of interest by visit
 */

export const reportKeys = [
  'enrollment',
  'missingForms',
  'queryAging',
  'protocolDeviations',
  'adverseEvents',
] as const;
export type ReportKey = (typeof reportKeys)[number];

export const reportParamsSchema = z.object({ studyId: paramIdSchema, report: z.enum(reportKeys) });

export const REPORT_PAGE_SIZES = [20, 50, 100] as const;

export const protocolDeviationKinds = [
  'outOfWindow',
  'eligibleWhileCriterionFails',
  'treatmentOffVisitDate',
  'missingPregnancyTest',
] as const;
export type ProtocolDeviationKind = (typeof protocolDeviationKinds)[number];

const reportFilterShape = {
  /** One of the reader's sites (another is 404); all of them when omitted. */
  siteId: paramIdSchema.optional(),
  /** protocolDeviations only: one kind of deviation. */
  deviation: z.enum(['all', ...protocolDeviationKinds]).default('all'),
  /** adverseEvents only: serious events only. */
  serious: z.enum(['all', 'serious']).default('all'),
};

export const reportFilterSchema = z.object(reportFilterShape);
export type ReportFilter = z.output<typeof reportFilterSchema>;

export const reportQuerySchema = z.object({
  ...reportFilterShape,
  ...pageQueryShape(REPORT_PAGE_SIZES, 20),
});
export type ReportQuery = z.input<typeof reportQuerySchema>;

export const reportDownloadQuerySchema = z.object({
  ...reportFilterShape,
  format: z.enum(['csv', 'xlsx']),
});

const codedSchema = codedValueSchema.nullable();
export type ReportCoded = z.infer<typeof codedSchema>;

const subjectRefShape = {
  siteCode: z.string(),
  /** The subject's database id (links to its overview). */
  subjectPk: z.number().int(),
  /** The screening number. */
  subjectId: z.string(),
};

// ---------------------------------------------------------------------------------------------
// enrollment

const enrollmentCountsShape = {
  screened: z.number().int(),
  screeningFailures: z.number().int(),
  randomized: z.number().int(),
};

export const enrollmentReportSchema = z.object({
  report: z.literal('enrollment'),
  /** The study's default per-site target (definition parameter `enrollmentTargetPerSite`). */
  targetPerSite: z.number().int(),
  sites: z.array(
    z.object({
      siteId: z.number().int(),
      siteCode: z.string(),
      siteName: z.string(),
      /** The site's own target, or the default when data management has set none. */
      target: z.number().int(),
      targetIsDefault: z.boolean(),
      ...enrollmentCountsShape,
    }),
  ),
  /** YYYY-MM (UTC+9): screened and failures by consent month, randomized by randomization month. */
  months: z.array(z.object({ month: z.string(), ...enrollmentCountsShape })),
  failureReasons: z.array(z.object({ reason: codedSchema, count: z.number().int() })),
});
export type EnrollmentReport = z.infer<typeof enrollmentReportSchema>;

export const ENROLLMENT_TARGET_MAX = 100_000;

/** `PUT /api/studies/:studyId/sites/:siteId/enrollment-target`: a site's target, or null for the default. */
export const enrollmentTargetRequestSchema = z.strictObject({
  target: z.number().int().min(1).max(ENROLLMENT_TARGET_MAX).nullable(),
});
export type EnrollmentTargetRequest = z.infer<typeof enrollmentTargetRequestSchema>;
export const enrollmentTargetParamsSchema = z.object({ studyId: paramIdSchema, siteId: paramIdSchema });
export const enrollmentTargetResponseSchema = z.object({
  siteId: z.number().int(),
  target: z.number().int(),
  targetIsDefault: z.boolean(),
});

// ---------------------------------------------------------------------------------------------
// missing forms

export const missingFormRowSchema = z.object({
  ...subjectRefShape,
  visitKey: z.string(),
  visitLabel: localizedSchema,
  formKey: z.string(),
  formLabel: localizedSchema,
  /** `empty`: nothing saved; `incomplete`: saved with required items missing. */
  state: z.enum(['empty', 'incomplete']),
  /** The visit's date when done; the end of its window when overdue. */
  dueDate: z.string(),
  daysOutstanding: z.number().int(),
});
export type MissingFormRow = z.infer<typeof missingFormRowSchema>;

export const missingFormsReportSchema = z.object({
  report: z.literal('missingForms'),
  ...pagedShape,
  rows: z.array(missingFormRowSchema),
  bySite: z.array(z.object({ siteCode: z.string(), empty: z.number().int(), incomplete: z.number().int() })),
});
export type MissingFormsReport = z.infer<typeof missingFormsReportSchema>;

// ---------------------------------------------------------------------------------------------
// query aging

const bucketCounts = z.object(
  Object.fromEntries(queryAgeBuckets.map((bucket) => [bucket, z.number().int()])) as Record<
    (typeof queryAgeBuckets)[number],
    z.ZodNumber
  >,
);
const queryAgingLineShape = {
  open: bucketCounts,
  answered: bucketCounts,
  /** Median whole days (UTC+9) from opening to the first answer, over answered queries; null without any. */
  medianDaysToAnswer: z.number().nullable(),
  /** Median whole days from opening to closing, over closed queries. */
  medianDaysToClose: z.number().nullable(),
};

export const queryAgingReportSchema = z.object({
  report: z.literal('queryAging'),
  sites: z.array(z.object({ siteId: z.number().int(), siteCode: z.string(), ...queryAgingLineShape })),
  total: z.object(queryAgingLineShape),
});
export type QueryAgingReport = z.infer<typeof queryAgingReportSchema>;
export type QueryAgingLine = z.infer<z.ZodObject<typeof queryAgingLineShape>>;

// ---------------------------------------------------------------------------------------------
// protocol deviations

export const protocolDeviationRowSchema = z.object({
  ...subjectRefShape,
  kind: z.enum(protocolDeviationKinds),
  visitKey: z.string(),
  visitLabel: localizedSchema,
  /** The day concerned: the visit date, the device application date, the eligibility visit's date. */
  date: z.string().nullable(),
  /** outOfWindow: days before (negative) or after (positive) the window; treatmentOffVisitDate: days from the visit date. */
  days: z.number().int().nullable(),
  /** What fails, in words (the criteria for eligibility, the window for a visit). */
  detail: localizedSchema,
});
export type ProtocolDeviationRow = z.infer<typeof protocolDeviationRowSchema>;

export const protocolDeviationsReportSchema = z.object({
  report: z.literal('protocolDeviations'),
  ...pagedShape,
  rows: z.array(protocolDeviationRowSchema),
  byKind: z.array(z.object({ kind: z.enum(protocolDeviationKinds), count: z.number().int() })),
});
export type ProtocolDeviationsReport = z.infer<typeof protocolDeviationsReportSchema>;

// ---------------------------------------------------------------------------------------------
// adverse events

export const adverseEventRowSchema = z.object({
  ...subjectRefShape,
  /** 1-based place of the event in the subject's adverse event form. */
  eventNumber: z.number().int(),
  term: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  serious: z.boolean(),
  severity: codedSchema,
  causality: codedSchema,
  deviceAction: codedSchema,
  outcome: codedSchema,
});
export type AdverseEventRow = z.infer<typeof adverseEventRowSchema>;

export const adverseEventsReportSchema = z.object({
  report: z.literal('adverseEvents'),
  ...pagedShape,
  rows: z.array(adverseEventRowSchema),
  /** The study's events of interest (its `eventsOfInterest` role) in order, labelled; none without it. */
  interestEvents: z.array(z.object({ key: z.string(), label: localizedSchema })),
  /** Per visit collecting them: the forms saved and, per event key, the forms answering "yes". */
  interest: z.array(
    z.object({
      visitKey: z.string(),
      visitLabel: localizedSchema,
      forms: z.number().int(),
      counts: z.record(z.string(), z.number().int()),
    }),
  ),
});
export type AdverseEventsReport = z.infer<typeof adverseEventsReportSchema>;

export const reportResponseSchema = z.discriminatedUnion('report', [
  enrollmentReportSchema,
  missingFormsReportSchema,
  queryAgingReportSchema,
  protocolDeviationsReportSchema,
  adverseEventsReportSchema,
]);
export type ReportResponse = z.infer<typeof reportResponseSchema>;
