import { z } from 'zod';
import { subjectBlindingSchema } from './blinding.ts';
import { calendarDateSchema } from './calendar-date.ts';
import { holdAbilitiesSchema, holdInForceSchema, holdMarkSchema } from './holds.ts';
import { bodyIdSchema, MAX_ID } from './ids.ts';
import { datedLabRangeSchema } from './lab-ranges.ts';
import { localizedSchema } from './localized.ts';
import { REASON_MAX, reasonSchema } from './reason.ts';
import { formSdvSchema, sdvFormStates } from './sdv.ts';
import { unscheduledVisitSchema } from './unscheduled-visits.ts';

export const subjectStatuses = ['screening', 'screening_failure', 'ongoing', 'complete', 'dropout'] as const;
export const subjectStatusSchema = z.enum(subjectStatuses);
export type SubjectStatus = z.infer<typeof subjectStatusSchema>;

/**
 * Subjects per status, every status present (zero included): the dashboard's groups (spec §4:
 * Drop-out, Complete, Ongoing, Screening, Screening-failure) and the summary's sites.
 */
export const statusCountsSchema = z.object(
  Object.fromEntries(subjectStatuses.map((status) => [status, z.number().int()])) as Record<
    SubjectStatus,
    z.ZodNumber
  >,
);
export type StatusCounts = z.infer<typeof statusCountsSchema>;

/** Subject initials: 2 to 4 Latin letters (stored in capitals), as on the paper consent log. */
export const initialsSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2,4}$/, { error: 'invalid_initials' });

export const createSubjectRequestSchema = z.strictObject({
  siteId: bodyIdSchema,
  consentDate: calendarDateSchema,
  initials: initialsSchema,
});
export type CreateSubjectRequest = z.input<typeof createSubjectRequestSchema>;

export const subjectSummarySchema = z.object({
  id: z.number().int(),
  /** Screening number, `S{institution}-{sequence}`, e.g. S01-001. */
  subjectId: z.string(),
  initials: z.string(),
  siteId: z.number().int(),
  siteCode: z.string(),
  status: subjectStatusSchema,
  consentDate: z.string(),
  createdAt: z.string(),
});
export type SubjectSummary = z.infer<typeof subjectSummarySchema>;

export const formStatusSchema = z.enum(['empty', 'none', 'dash', 'alert', 'check']);

export const overviewResponseSchema = z.object({
  subject: subjectSummarySchema,
  definitionVersion: z.string(),
  /**
   * The subject's unscheduled visits (not deleted) by date, then repeat key: the overview puts each
   * among the scheduled visits by its date.
   */
  unscheduledVisits: z.array(unscheduledVisitSchema),
  /**
   * The saved date of each scheduled visit that has one (visit key → YYYY-MM-DD; the consent visit: the
   * consent date), for placing the unscheduled visits among them.
   */
  visitDates: z.record(z.string(), z.string()),
  /**
   * Whether the reader may add an unscheduled visit (the study declares them, the reader enters this
   * subject's data, and no freeze or lock holds the subject, its site or the study) and delete an empty one.
   */
  unscheduledVisitAbilities: z.object({ add: z.boolean(), delete: z.boolean() }),
  /** visit key → form key → status (every visit and form of the definition, and every unscheduled visit). */
  matrix: z.record(z.string(), z.record(z.string(), formStatusSchema)),
  /**
   * visit key → form key → the cell's SDV and hold marks (same keys as `matrix`): `sdv` against the plan
   * (sdv.ts), `hold` the strongest freeze or lock over the form (its own, the subject's, the site's or
   * the study's), null when none.
   */
  marks: z.record(
    z.string(),
    z.record(z.string(), z.object({ sdv: z.enum(sdvFormStates), hold: holdMarkSchema })),
  ),
  /** Freezes and locks in force over the subject: its own, its forms', its site's and the study's. */
  holds: z.array(holdInForceSchema),
  /** Emergency unblinding and the group, for a reader who may know it (issue 51; blinding/). */
  blinding: subjectBlindingSchema,
  /** Whether the reader may freeze/unfreeze and lock/unlock this subject and its forms. */
  holdAbilities: holdAbilitiesSchema,
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;

/**
 * A query on this form as the form screen shows it (every state: the item's badge counts the open and
 * answered ones, the side panel lists them all and loads a thread from GET …/queries/:queryId).
 */
export const itemQuerySchema = z.object({
  id: z.number().int(),
  /** The item's path, or '' (WHOLE_FORM_ITEM_PATH) for a query on the whole form. */
  itemPath: z.string(),
  kind: z.enum(['system', 'manual']),
  status: z.enum(['open', 'answered', 'closed', 'cancelled']),
  checkId: z.string().nullable(),
  /** The text it was raised with (the edit check's message, or the monitor's words in both languages). */
  message: localizedSchema,
  openedAt: z.string(),
  messageCount: z.number().int(),
});

export const commentSchema = z.object({
  id: z.number().int(),
  sectionKey: z.string(),
  text: z.string(),
  author: z.string(),
  createdAt: z.string(),
});
export type FormComment = z.infer<typeof commentSchema>;

export const formDataResponseSchema = z.object({
  subject: subjectSummarySchema,
  visitKey: z.string(),
  formKey: z.string(),
  /** Saved values (derived ones included), JSON: numbers, 'YYYY-MM-DD', 'HH:mm', codes, arrays of rows. */
  values: z.record(z.string(), z.unknown()),
  derived: z.record(z.string(), z.unknown()),
  status: formStatusSchema,
  /** The version a save must name (0 before the first save). */
  version: z.number().int(),
  definitionVersion: z.string(),
  queries: z.array(itemQuerySchema),
  comments: z.array(commentSchema),
  /** Routing prompts the rules report for this form (spec §4), e.g. go to end of study. */
  outcomes: z.array(
    z.object({
      outcomeId: z.string(),
      kind: z.string(),
      message: localizedSchema,
      target: z.object({ visit: z.string(), form: z.string() }).nullable(),
    }),
  ),
  /** Freezes and locks in force over this form: its own, the subject's, the site's and the study's. */
  holds: z.array(holdInForceSchema),
  /** The form's SDV marks and its state against the plan. */
  sdv: formSdvSchema,
  /**
   * On the labTest form: the site's normal ranges that fit this subject (sex, age), each with the day it
   * took effect, for the browser to flag results as they are typed against the range in force on the
   * specimen date as typed (today while it is empty; `rangesInForceOn`). Empty on other forms.
   */
  labRanges: z.array(datedLabRangeSchema),
  abilities: z.object({
    /** Enter and change data: the role allows it, the form is not the signing form, and no freeze or lock holds it. */
    edit: z.boolean(),
    /** On the randomization form: the user may randomize this subject now (eligibility is checked on asking). */
    randomize: z.boolean(),
    /** The user may raise a manual query on this form's items (CRA, DM in scope; not under a lock). */
    openQuery: z.boolean(),
    /** The user may verify and un-verify this form's items (CRA on this site; not under a lock). */
    verify: z.boolean(),
    /** The user may freeze and unfreeze this form (CRA on this site, DM; not under a lock). */
    freeze: z.boolean(),
    /** The user may lock and unlock this form (DM). */
    lock: z.boolean(),
  }),
});
export type FormDataResponse = z.infer<typeof formDataResponseSchema>;

export { REASON_MAX };
export const COMMENT_MAX = 3500;

/** A form's version as the client last saw it: an int4 column, so larger numbers are refused here, not in SQL. */
const formVersionSchema = z.number().int().min(0).max(MAX_ID);

export const saveFormRequestSchema = z.strictObject({
  values: z.record(z.string(), z.unknown()),
  version: formVersionSchema,
  /** Reason for change per item key whose saved value changes (required for those). */
  reasons: z.record(z.string(), reasonSchema).default({}),
});
export type SaveFormRequest = z.input<typeof saveFormRequestSchema>;

export const resetFormRequestSchema = z.strictObject({
  version: formVersionSchema,
  reason: reasonSchema,
});

export const addCommentRequestSchema = z.strictObject({
  sectionKey: z.string().min(1).max(100),
  text: z.string().trim().min(1).max(COMMENT_MAX),
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  occurredAt: z.string(),
  type: z.string(),
  /** The person's name; null for changes the system made itself. Histories never show an e-mail. */
  actorName: z.string().nullable(),
  /**
   * The study role(s) the person acted in at the record's site, in role order, comma-separated
   * ("CRC", "PI,SI"); null when none applies (the system, a system administrator without a role).
   */
  actorRole: z.string().nullable(),
  visitKey: z.string().nullable(),
  formKey: z.string().nullable(),
  itemPath: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = z.object({
  visit: z.string().max(50).optional(),
  form: z.string().max(50).optional(),
  item: z.string().max(200).optional(),
});
