import { z } from 'zod';
import { paramIdSchema } from './ids.ts';
import { codedValueSchema, localizedSchema } from './localized.ts';
import { statusCountsSchema } from './subjects.ts';

/**
 * The study summary (issue 17 item 2): `GET /api/studies/:studyId/summary` answers the study at a
 * glance over the reader's sites (optionally one of them), every figure counted in SQL from the live
 * data. Who may read the reports may read it (`report.read`).
 *
 *   statusBySite   subjects per site and status (the read model)
 *   visitMatrix    scheduled visits × sites: done in window / out of window / overdue / not yet due
 *   healing        the tympanic photo evaluation's healing outcome per visit where it is collected
 *   keyMeasures    the study's key measures (its `keyMeasures` role) per visit where they are
 *                  collected, and the change from the first of those visits to the last for subjects
 *                  measured at both
 *
 * `groups` and every `byGroup` are present only for a reader holding `summary.by_group` (aggregate
 * efficacy by arm: data management). Seeing a subject's assigned group (the study's group-visibility
 * setting) does not grant it; for anyone else the answer holds no trace of the split.
 */

export const summaryParamsSchema = z.object({ studyId: paramIdSchema });

export const summaryQuerySchema = z.object({
  /** One of the reader's sites (another is 404); all of them when omitted. */
  siteId: paramIdSchema.optional(),
});
export type SummaryQuery = z.input<typeof summaryQuerySchema>;

const count = z.number().int();

/** The four states of a scheduled visit of a subject, as the matrix counts them. */
export const visitCompletionStates = ['inWindow', 'outOfWindow', 'overdue', 'notYetDue'] as const;
export type VisitCompletionState = (typeof visitCompletionStates)[number];

const completionCounts = z.object(
  Object.fromEntries(visitCompletionStates.map((state) => [state, count])) as Record<
    VisitCompletionState,
    typeof count
  >,
);
export type VisitCompletionCounts = z.infer<typeof completionCounts>;

/** Counts per outcome code (every code of the outcome's code list, zero included). */
const outcomeCounts = z.record(z.string(), count);

/** n, mean and median of one key measure (one decimal); mean and median null without any value. */
const measureStats = z.object({
  /** The measure's item key (`measures[].key`). */
  measure: z.string(),
  n: count,
  mean: z.number().nullable(),
  median: z.number().nullable(),
});
export type MeasureStats = z.infer<typeof measureStats>;

/** Subjects with the measure at both visits: their means at each and the mean change (last − first). */
const measureChange = z.object({
  measure: z.string(),
  n: count,
  meanFrom: z.number().nullable(),
  meanTo: z.number().nullable(),
  meanChange: z.number().nullable(),
});
export type MeasureChange = z.infer<typeof measureChange>;

const visitRef = { visitKey: z.string(), visitLabel: localizedSchema };

export const summaryResponseSchema = z.object({
  /** The sites counted, by institution number. */
  sites: z.array(z.object({ siteId: z.number().int(), siteCode: z.string(), siteName: z.string() })),
  /** Present only for a reader holding `summary.by_group`: the groups, in code-list order. */
  groups: z.array(codedValueSchema).optional(),
  statusBySite: z.array(z.object({ siteId: z.number().int(), counts: statusCountsSchema })),
  /**
   * The definition's scheduled visits (those with a window) in order, each with a cell per site. A
   * visit counts for a subject once its window is known (the anchor visit is dated): done in or out
   * of the window by its visit date; not done: overdue when the window has closed, not yet due while
   * it is open or ahead — both only for subjects still ongoing (others will not come).
   */
  visitMatrix: z.array(
    z.object({
      ...visitRef,
      cells: z.array(z.object({ siteId: z.number().int(), counts: completionCounts })),
    }),
  ),
  healing: z.object({
    /** The outcome codes in the code list's order. */
    outcomes: z.array(codedValueSchema),
    visits: z.array(
      z.object({
        ...visitRef,
        counts: outcomeCounts,
        /** Randomized subjects only, per group (present only with `groups`). */
        byGroup: z.array(z.object({ group: z.string(), counts: outcomeCounts })).optional(),
      }),
    ),
  }),
  keyMeasures: z.object({
    /** The measures in the role's order, each with its item's label and unit (null without one). */
    measures: z.array(z.object({ key: z.string(), label: localizedSchema, unit: z.string().nullable() })),
    visits: z.array(
      z.object({
        ...visitRef,
        stats: z.array(measureStats),
        byGroup: z.array(z.object({ group: z.string(), stats: z.array(measureStats) })).optional(),
      }),
    ),
    /** From the first visit collecting the measures to the last; null when fewer than two visits do. */
    change: z
      .object({
        fromVisit: z.object(visitRef),
        toVisit: z.object(visitRef),
        overall: z.array(measureChange),
        byGroup: z.array(z.object({ group: z.string(), changes: z.array(measureChange) })).optional(),
      })
      .nullable(),
  }),
});
export type SummaryResponse = z.infer<typeof summaryResponseSchema>;
