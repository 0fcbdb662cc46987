import { z } from 'zod';
import { siteSummarySchema } from './auth.ts';
import { pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { localizedSchema } from './localized.ts';
import { subjectStatusSchema } from './subjects.ts';
import { visitAlarmStates } from './visit-alarm-states.ts';

// The states as a plain list (no zod) for the web's dashboard, which reads them before any schema.
export { type VisitAlarmState, visitAlarmStates } from './visit-alarm-states.ts';

export const visitAlarmStateSchema = z.enum(visitAlarmStates);

/** Rows per page of the alarm list (the subject list's sizes, prototype-spec §9). */
export const VISIT_ALARM_PAGE_SIZES = [10, 50, 100] as const;

export const visitAlarmQuerySchema = z.object({
  /** One site (in the reader's scope); all sites in scope when omitted. */
  site: paramIdSchema.optional(),
  state: visitAlarmStateSchema.optional(),
  ...pageQueryShape(VISIT_ALARM_PAGE_SIZES, 10),
});
export type VisitAlarmQuery = z.input<typeof visitAlarmQuerySchema>;

export const visitAlarmCountsSchema = z.object({
  overdue: z.number().int(),
  due: z.number().int(),
  dueSoon: z.number().int(),
  outOfWindow: z.number().int(),
});
export type VisitAlarmCounts = z.infer<typeof visitAlarmCountsSchema>;

export const visitAlarmSchema = z.object({
  subject: z.object({
    /** The subject's key (pk). */
    id: z.number().int(),
    /** Screening number, e.g. S01-001. */
    subjectId: z.string(),
    /** Randomization number, once randomized. */
    registrationNumber: z.string().nullable(),
    siteId: z.number().int(),
    siteCode: z.string(),
    siteName: z.string(),
    status: subjectStatusSchema,
  }),
  visitKey: z.string(),
  visitLabel: localizedSchema,
  expectedDate: z.string(),
  earliestDate: z.string(),
  latestDate: z.string(),
  /** The visit date entered, for visits done (out of window); null for visits not done. */
  actualDate: z.string().nullable(),
  state: visitAlarmStateSchema,
  /**
   * Whole days, never negative: overdue — since the window closed; due — left until it closes
   * (0: today is the last day); dueSoon — until it opens; outOfWindow — outside the window.
   */
  days: z.number().int(),
  /** For outOfWindow: whether the visit was early or late; null otherwise. */
  timing: z.enum(['early', 'late']).nullable(),
});
export type VisitAlarm = z.infer<typeof visitAlarmSchema>;

export const visitAlarmListResponseSchema = z.object({
  alarms: z.array(visitAlarmSchema),
  /** Alarms per state over the site filter (not the state filter). */
  counts: visitAlarmCountsSchema,
  ...pagedShape,
  /** The Korean day the alarms were computed for (YYYY-MM-DD). */
  today: z.string(),
  /** How many days ahead a window opening counts as "due soon". */
  dueSoonDays: z.number().int(),
  /** The sites in the reader's scope (the site filter's choices). */
  sites: z.array(siteSummarySchema),
});
export type VisitAlarmListResponse = z.infer<typeof visitAlarmListResponseSchema>;
