import { z } from 'zod';
import { siteSummarySchema } from './auth.ts';
import { paramIdSchema } from './ids.ts';
import { localizedSchema } from './localized.ts';
import { statusCountsSchema } from './subjects.ts';
import { visitAlarmCountsSchema } from './visit-alarms.ts';

const count = z.number().int();

export const dashboardQuerySchema = z.object({
  /** The monthly chart's institution (a site in the reader's scope); all sites in scope when omitted. */
  site: paramIdSchema.optional(),
});
export type DashboardQuery = z.input<typeof dashboardQuerySchema>;

const groupCounts = {
  total: count,
  /** Subjects with a randomization number. */
  randomized: count,
  statuses: statusCountsSchema,
};

/** The target-status doughnut by gender: one group per code of the study's gender list, then "not entered". */
export const genderGroupSchema = z.object({
  /** The gender code (e.g. M, F), or `notEntered` for subjects without demographics. */
  key: z.string(),
  /** The code's label from the study definition; null for `notEntered`. */
  label: localizedSchema.nullable(),
  ...groupCounts,
});
export type GenderGroup = z.infer<typeof genderGroupSchema>;

/** The doughnut by age band (age in full years at consent); `notEntered` has no bounds. */
export const ageGroupSchema = z.object({
  key: z.string(),
  /** Youngest age in the band; null for the lowest band and for `notEntered`. */
  minAge: z.number().int().nullable(),
  /** Oldest age in the band; null for the highest band and for `notEntered`. */
  maxAge: z.number().int().nullable(),
  ...groupCounts,
});
export type AgeGroup = z.infer<typeof ageGroupSchema>;

export const dashboardResponseSchema = z.object({
  study: z.object({ id: z.number().int(), code: z.string(), title: z.string(), content: z.string() }),
  /** The Korean day the figures were computed for. */
  today: z.string(),
  subjects: z.object(groupCounts),
  queries: z.object({
    system: z.object({ open: count, answered: count }),
    manual: z.object({ open: count, answered: count }),
  }),
  safety: z.object({
    adverseEvents: count,
    seriousAdverseEvents: count,
    subjectsWithAdverseEvents: count,
    subjectsWithSeriousAdverseEvents: count,
  }),
  targetStatus: z.object({
    byGender: z.array(genderGroupSchema),
    byAge: z.array(ageGroupSchema),
  }),
  /** Subjects per month of consent (enrolment), first month to the current one, zeros included. */
  registrations: z.object({
    /** The chosen institution, or null for every site in scope. */
    siteId: z.number().int().nullable(),
    months: z.array(z.object({ month: z.string(), count })),
  }),
  /** The sites in the reader's scope (the institution dropdown). */
  sites: z.array(siteSummarySchema),
  visitAlarms: visitAlarmCountsSchema,
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

/** The header's subject-info popup (spec §2 "Shell"): today's work in the reader's sites. */
export const subjectInfoResponseSchema = z.object({
  /** Open queries, system and manual. */
  openQueries: count,
  /** Answered queries waiting for the monitor. */
  answeredQueries: count,
  seriousAdverseEvents: count,
  /** eCRF pages (forms) with saved data. */
  ecrfPages: count,
  /**
   * Saved pages not SDV-complete against the study's SDV plan (sdv.ts): saved forms with an entered
   * item in the plan that is not verified. Pages with nothing in the plan are not counted.
   */
  pagesNotSdvComplete: count,
  visitAlarms: visitAlarmCountsSchema,
});
export type SubjectInfoResponse = z.infer<typeof subjectInfoResponseSchema>;
