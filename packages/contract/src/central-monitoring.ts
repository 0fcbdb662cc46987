import { z } from 'zod';
import { siteSummarySchema } from './auth.ts';
import { pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { localizedSchema } from './localized.ts';

/**
 * Central monitoring (issue 50): key risk indicators per site with the study's quality tolerance
 * limits, and statistical signals found in the data, both computed by a background run and read
 * precomputed. Every figure says what it is made of (numerator, denominator, the numbers behind a
 * signal), so a monitor can follow it back to the data.
 */

// ---------------------------------------------------------------------------------------------
// Key risk indicators and their tolerance limits

/**
 * The indicators, each per site. Rates are per the unit named in docs (`central-monitoring/README.md`):
 * queryRate per 100 entered values; queryAnswerDays median days from opening to the site's answer;
 * entryLagDays median days from visit date to the form's first save; missingForms forms of done visits
 * left empty per subject; overdueVisits per subject; protocolDeviations (visits out of window) per
 * subject; adverseEventRate and seriousAdverseEventRate per subject-month since consent;
 * screeningFailureRate percent of subjects; sdvFindings percent of verified items changed since;
 * correctionsPerForm changes of an entered value per saved form; overdueSaeReports percent of SAE reports
 * not submitted within 24 hours of awareness (submitted late, or still not submitted past due: issue 51).
 */
export const kriKeys = [
  'queryRate',
  'queryAnswerDays',
  'entryLagDays',
  'missingForms',
  'overdueVisits',
  'protocolDeviations',
  'adverseEventRate',
  'seriousAdverseEventRate',
  'screeningFailureRate',
  'sdvFindings',
  'correctionsPerForm',
  'overdueSaeReports',
] as const;
export type KriKey = (typeof kriKeys)[number];
export const kriKeySchema = z.enum(kriKeys);

/** green within the limits; amber past the warning limit; red past the tolerance limit; none: too little data. */
export const trafficLights = ['green', 'amber', 'red', 'none'] as const;
export type TrafficLight = (typeof trafficLights)[number];

/**
 * A study's quality tolerance limit of one indicator: `warning` (amber) and `limit` (red). An indicator is
 * judged when its denominator reaches `minimumDenominator`; `direction` says which side is bad (`low`: a
 * too-low value is the risk, e.g. an AE rate far under the others' may be under-reporting).
 */
export const toleranceLimitSchema = z.strictObject({
  key: kriKeySchema,
  warning: z.number().finite().min(0).max(1_000_000),
  limit: z.number().finite().min(0).max(1_000_000),
  direction: z.enum(['high', 'low']),
  minimumDenominator: z.number().int().min(0).max(1_000_000),
});
export type ToleranceLimit = z.infer<typeof toleranceLimitSchema>;

export const saveToleranceLimitsRequestSchema = z.strictObject({
  limits: z.array(toleranceLimitSchema).min(1).max(kriKeys.length),
  /** Why the limits change (audited). */
  reason: z.string().trim().min(1).max(500),
});
export type SaveToleranceLimitsRequest = z.input<typeof saveToleranceLimitsRequestSchema>;

export const indicatorValueSchema = z.object({
  key: kriKeySchema,
  /** null when the denominator is 0. */
  value: z.number().nullable(),
  numerator: z.number(),
  denominator: z.number(),
  light: z.enum(trafficLights),
  /** The same indicator over every site in the reader's scope, for comparison. */
  studyValue: z.number().nullable(),
});
export type IndicatorValue = z.infer<typeof indicatorValueSchema>;

/** One indicator of one site over the runs kept (oldest first): the trend. */
export const indicatorTrendSchema = z.object({
  key: kriKeySchema,
  points: z.array(z.object({ day: z.string(), value: z.number().nullable() })),
});

export const siteIndicatorsSchema = z.object({
  site: siteSummarySchema,
  subjects: z.number().int(),
  indicators: z.array(indicatorValueSchema),
  trends: z.array(indicatorTrendSchema),
});
export type SiteIndicators = z.infer<typeof siteIndicatorsSchema>;

// ---------------------------------------------------------------------------------------------
// The background run

export const monitoringRunSchema = z.object({
  state: z.enum(['none', 'queued', 'running', 'done', 'failed']),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Steps done of the run's total (sites × indicators, then items × methods). */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  /** Data were saved after the results' run started: a new run is queued or running. */
  stale: z.boolean(),
});
export type MonitoringRun = z.infer<typeof monitoringRunSchema>;

// ---------------------------------------------------------------------------------------------
// Statistical signals

export const signalKinds = [
  /** A site's mean of an item far from the other sites' (robust z). */
  'siteMean',
  /** A site's spread of an item far wider than the other sites'. */
  'siteVariance',
  /** A site's spread far narrower than the others': the sign of invented data. */
  'lowVariance',
  /** Terminal digits not uniform (chi-square), e.g. blood pressures ending in 0 or 5. */
  'digitPreference',
  /** Identical records of a form across subjects. */
  'duplicateRecord',
  /** A site's visits fall on weekends or holidays far more often than the others'. */
  'weekdayPattern',
  /** A value that jumps out of its subject's own series. */
  'seriesOutlier',
] as const;
export type SignalKind = (typeof signalKinds)[number];

export const signalStates = ['open', 'queried', 'noted', 'dismissed'] as const;
export type SignalState = (typeof signalStates)[number];

/** An item a signal names: a query raised from the signal goes on these items of these subjects. */
export const signalItemSchema = z.object({
  visitKey: z.string().nullable(),
  formKey: z.string(),
  itemKey: z.string(),
  label: localizedSchema,
});

export const signalChartSchema = z.object({
  kind: z.enum(['bars', 'series']),
  /** Category labels (digits, weekdays, sites) or dates of a series. */
  labels: z.array(z.string()),
  series: z.array(z.object({ name: localizedSchema, values: z.array(z.number().nullable()) })),
});

export const signalSchema = z.object({
  id: z.number().int(),
  kind: z.enum(signalKinds),
  site: siteSummarySchema,
  /** 0–1: how sure the method is (1 − p, or a robust z scaled); the list sorts by it. */
  strength: z.number(),
  /** One sentence: what was found, where. */
  title: localizedSchema,
  /** How it was found and what the numbers mean. */
  explanation: localizedSchema,
  items: z.array(signalItemSchema),
  subjects: z.array(z.object({ subjectId: z.number().int(), screeningNumber: z.string() })),
  /** The numbers behind the signal, by name (z, p, n, chiSquare, siteMean, othersMean …). */
  numbers: z.record(z.string(), z.number()),
  chart: signalChartSchema,
  state: z.enum(signalStates),
  /** What a person did with it: the queries raised, the note, the dismissal's reason. */
  resolution: z
    .object({ by: z.string(), at: z.string(), text: z.string(), queryIds: z.array(z.number().int()) })
    .nullable(),
  foundAt: z.string(),
});
export type Signal = z.infer<typeof signalSchema>;

export const SIGNAL_PAGE_SIZES = [10, 20, 50] as const;

export const signalListQuerySchema = z.object({
  ...pageQueryShape(SIGNAL_PAGE_SIZES, 20),
  site: paramIdSchema.optional(),
  kind: z.enum(signalKinds).optional(),
  state: z.enum(['active', ...signalStates]).default('active'),
});
export type SignalListQuery = z.input<typeof signalListQuerySchema>;

export const signalListResponseSchema = z.object({ items: z.array(signalSchema), ...pagedShape });
export type SignalListResponse = z.infer<typeof signalListResponseSchema>;

/** A signal turned into queries: one query per item and subject it names, one text, one transaction. */
export const raiseSignalQueriesRequestSchema = z.strictObject({ text: z.string().trim().min(1).max(2000) });
export const raiseSignalQueriesResponseSchema = z.object({ queryIds: z.array(z.number().int()) });
export type RaiseSignalQueriesResponse = z.infer<typeof raiseSignalQueriesResponseSchema>;
/** A note for the next monitoring visit. */
export const noteSignalRequestSchema = z.strictObject({ text: z.string().trim().min(1).max(2000) });
export const dismissSignalRequestSchema = z.strictObject({ reason: z.string().trim().min(1).max(500) });

// ---------------------------------------------------------------------------------------------
// Reads

/** `GET /api/studies/:id/monitoring`: the full page. Sites see only their own indicators. */
export const monitoringResponseSchema = z.object({
  run: monitoringRunSchema,
  limits: z.array(toleranceLimitSchema),
  sites: z.array(siteIndicatorsSchema),
  /** Signals counted by state in the reader's scope. */
  signalCounts: z.record(z.enum(signalStates), z.number().int()),
  canManageLimits: z.boolean(),
  canActOnSignals: z.boolean(),
});
export type MonitoringResponse = z.infer<typeof monitoringResponseSchema>;

/** `GET /api/studies/:id/monitoring/panel`: the dashboard's panel, read from the stored run. */
export const monitoringPanelResponseSchema = z.object({
  run: monitoringRunSchema,
  /** The strongest open signals in the reader's scope (at most 5); empty for site roles. */
  topSignals: z.array(signalSchema),
  /** The indicators past a limit, worst first (at most 5), in the reader's scope. */
  flaggedIndicators: z.array(z.object({ site: siteSummarySchema, indicator: indicatorValueSchema })),
  /** Whether the reader may open `/monitoring/:studyId` (CRA, DM, ADMIN; sites: their own indicators). */
  canOpenPage: z.boolean(),
});
export type MonitoringPanelResponse = z.infer<typeof monitoringPanelResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Paths and the run request (added by the server, issue 50)

export const monitoringParamsSchema = z.object({ studyId: paramIdSchema });
export const signalParamsSchema = z.object({ studyId: paramIdSchema, signalId: paramIdSchema });

/** `POST …/monitoring/runs` (no body): the run queued (or the one already queued or running). */
export const requestMonitoringRunResponseSchema = z.object({ run: monitoringRunSchema });
export type RequestMonitoringRunResponse = z.infer<typeof requestMonitoringRunResponseSchema>;

/** `PUT …/monitoring/tolerance-limits`: the study's limits as they now are, every indicator. */
export const saveToleranceLimitsResponseSchema = z.object({ limits: z.array(toleranceLimitSchema) });

/** `POST …/signals/:signalId/note` and `…/dismiss`: the signal as it now is. */
export const signalResponseSchema = z.object({ signal: signalSchema });
