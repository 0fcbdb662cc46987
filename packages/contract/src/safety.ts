import { z } from 'zod';
import { pagedShape, pageQuerySchema, pageQueryShape, paramIdSchema } from './ids.ts';
import { reasonSchema } from './reason.ts';

/**
 * Issue 51 item 1: the SAE fast path. An adverse event answered "serious" starts an SAE report; the site
 * fills it, the PI submits it with an electronic signature within 24 hours of awareness, follow-ups are
 * new versions, the sponsor's safety desk acknowledges each submission.
 */

/** ICH E2A seriousness criteria (CIOMS-I box 8–12), multi-select. */
export const saeCriteria = [
  'death',
  'lifeThreatening',
  'hospitalisation',
  'disability',
  'congenitalAnomaly',
  'medicallyImportant',
] as const;
export const saeCriterionSchema = z.enum(saeCriteria);
export type SaeCriterion = z.infer<typeof saeCriterionSchema>;

/** draft: the site writes it; submitted: the PI signed it to the sponsor; acknowledged: the safety desk received it. */
export const saeStatuses = ['draft', 'submitted', 'acknowledged'] as const;
export const saeStatusSchema = z.enum(saeStatuses);
export type SaeStatus = z.infer<typeof saeStatusSchema>;

/** Hours from awareness to the investigator's report (ICH E6(R3) 2.7.3: immediately, within 24 hours). */
export const SAE_REPORT_HOURS = 24;

const text = (max: number) => z.string().max(max);

/** What one version of a report says. */
export const saeContentSchema = z.strictObject({
  criteria: z
    .array(saeCriterionSchema)
    .max(saeCriteria.length)
    .refine((list) => new Set(list).size === list.length, { error: 'duplicate_criterion' }),
  narrative: text(20_000),
  relevantHistory: text(10_000),
  /** Suspect drugs and device, one per entry (name, dose, route, dates as the site writes them). */
  suspectProducts: z.array(z.string().trim().min(1).max(500)).max(30),
  outcome: text(2_000),
  /** Who reports (name, profession, contact) as the site writes it. */
  reporter: text(500),
});
export type SaeContent = z.infer<typeof saeContentSchema>;

export const emptySaeContent: SaeContent = {
  criteria: [],
  narrative: '',
  relevantHistory: '',
  suspectProducts: [],
  outcome: '',
  reporter: '',
};

export const saeVersionSchema = z.object({
  version: z.number().int(),
  /** 1: the initial report; later: follow-ups. */
  kind: z.enum(['initial', 'followUp']),
  content: saeContentSchema,
  savedAt: z.string(),
  savedBy: z.string().nullable(),
  submittedAt: z.string().nullable(),
  submittedBy: z.string().nullable(),
  /** The signature's meaning as the signer saw it, { ko, en }. */
  signatureMeaning: z.object({ ko: z.string(), en: z.string() }).nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
});
export type SaeVersion = z.infer<typeof saeVersionSchema>;

export const saeReportSummarySchema = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  site: z.string(),
  subjectId: z.number().int(),
  screeningNumber: z.string(),
  /** Where the event is: the adverse events form's visit and form, and its row (1-based). */
  visitKey: z.string(),
  formKey: z.string(),
  eventNumber: z.number().int(),
  /** The event's term as last saved on the form ('' when the study names none). */
  term: z.string(),
  status: saeStatusSchema,
  /** ISO 8601 UTC: when the site learned of the event. */
  awarenessAt: z.string(),
  /** awarenessAt + 24 h. */
  dueAt: z.string(),
  /** Submitted after dueAt, or not submitted and past it. */
  overdue: z.boolean(),
  currentVersion: z.number().int(),
  /** The optimistic lock of the report's row: every change bumps it. */
  rowVersion: z.number().int(),
  firstSubmittedAt: z.string().nullable(),
});
export type SaeReportSummary = z.infer<typeof saeReportSummarySchema>;

export const saeReportSchema = saeReportSummarySchema.extend({
  versions: z.array(saeVersionSchema),
  /** What the caller may do now. */
  canEdit: z.boolean(),
  canSubmit: z.boolean(),
  canFollowUp: z.boolean(),
  canAcknowledge: z.boolean(),
});
export type SaeReport = z.infer<typeof saeReportSchema>;

export const SAE_PAGE_SIZES = [20, 50, 100] as const;
export const saeListQuerySchema = z.strictObject({
  status: saeStatusSchema.optional(),
  siteId: paramIdSchema.optional(),
  overdue: z.enum(['true', 'false']).optional(),
  ...pageQueryShape(SAE_PAGE_SIZES, 20),
});
export type SaeListQuery = z.input<typeof saeListQuerySchema>;

export const saeListResponseSchema = z.object({
  reports: z.array(saeReportSummarySchema),
  ...pagedShape,
});
export type SaeListResponse = z.infer<typeof saeListResponseSchema>;

export const saeReportParamsSchema = z.object({ studyId: paramIdSchema, reportId: paramIdSchema });

/** Which version an export prints (the current one when absent) and, for the PDF, its language. */
export const saeExportQuerySchema = z.strictObject({
  version: pageQuerySchema.optional(),
  lang: z.enum(['ko', 'en']).optional(),
});

export const saveSaeDraftRequestSchema = z.strictObject({
  rowVersion: z.number().int().min(1).max(1_000_000),
  content: saeContentSchema,
});
export type SaveSaeDraftRequest = z.infer<typeof saveSaeDraftRequestSchema>;

export const changeSaeAwarenessRequestSchema = z.strictObject({
  rowVersion: z.number().int().min(1).max(1_000_000),
  /** ISO 8601 with offset, e.g. 2026-03-01T23:30:00+09:00. */
  awarenessAt: z.iso.datetime({ offset: true }),
  reason: reasonSchema,
});
export type ChangeSaeAwarenessRequest = z.infer<typeof changeSaeAwarenessRequestSchema>;

export const submitSaeReportRequestSchema = z.strictObject({
  rowVersion: z.number().int().min(1).max(1_000_000),
  /** The PI's own password, entered again for this signature (21 CFR 11.200). */
  password: z.string().min(1).max(200),
  code: z.string().trim().min(1).max(20).optional(),
});
export type SubmitSaeReportRequest = z.infer<typeof submitSaeReportRequestSchema>;

export const saeRowVersionRequestSchema = z.strictObject({
  rowVersion: z.number().int().min(1).max(1_000_000),
});
export type SaeRowVersionRequest = z.infer<typeof saeRowVersionRequestSchema>;

/** The overdue count the dashboard shows. */
export const saeOverdueCountSchema = z.object({ overdue: z.number().int(), open: z.number().int() });

/** Time left to the due time in whole minutes (negative: overdue). */
export function saeMinutesLeft(dueAt: string, now: Date): number {
  return Math.floor((Date.parse(dueAt) - now.getTime()) / 60_000);
}

/** What the PI's electronic signature of an SAE report means, as the dialog shows it and the record keeps it. */
export const SAE_SIGNATURE_MEANING = {
  ko: '본인은 시험책임자로서 이 중대한 이상사례 보고의 내용이 정확함을 확인하고 의뢰자에게 제출합니다.',
  en: 'As the investigator, I confirm that this serious adverse event report is accurate and submit it to the sponsor.',
} as const;
