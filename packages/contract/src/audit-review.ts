import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { localizedSchema } from './localized.ts';
import { roleSchema } from './roles.ts';

/**
 * The audit review page (issue 16 "Data out", item 5): the whole study's audit trail for CRA, DM and
 * ADMIN, filtered, sorted and paged by the server, downloadable as CSV, with the hash chain's status.
 * DM and ADMIN see every record of the study; a CRA the records of the sites they monitor plus the
 * study-level records that name no site; site roles (PI, SI, CRC) get 403.
 *
 * Routes (all under /api/studies/:studyId):
 *   GET /audit        the trail (auditTrailQuerySchema) → AuditTrailResponse
 *   GET /audit.csv    the same filters, every record, as CSV (UTF-8 with BOM; audited `audit.exported`)
 *   GET /audit/chain  the hash chain's status → AuditChainStatus
 */

export const AUDIT_TRAIL_PAGE_SIZES = [20, 50, 100] as const;
export const AUDIT_TEXT_MAX = 100;
export const auditTrailSorts = ['newest', 'oldest'] as const;
export type AuditTrailSort = (typeof auditTrailSorts)[number];

const keySchema = z.string().trim().min(1).max(100);

const auditFilterShape = {
  /** First day (UTC+9) of the range, inclusive. */
  from: calendarDateSchema.optional(),
  /** Last day (UTC+9) of the range, inclusive. */
  to: calendarDateSchema.optional(),
  userId: paramIdSchema.optional(),
  /** A role the actor held (records store the roles they were written under, e.g. "PI,SI"). */
  role: roleSchema.optional(),
  siteId: paramIdSchema.optional(),
  /** The subject's database id (the subject list's `id`). */
  subjectId: paramIdSchema.optional(),
  /** An event type, e.g. `data.item_changed` (the server lists them in the response's `eventTypes`). */
  eventType: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z_]+\.[a-z_]+$/, { error: 'invalid_event_type' })
    .optional(),
  visitKey: keySchema.optional(),
  formKey: keySchema.optional(),
  itemKey: keySchema.optional(),
  /** Words in the actor, target, reason or values; case-insensitive, part of them. */
  text: z.string().trim().max(AUDIT_TEXT_MAX).optional(),
  sort: z.enum(auditTrailSorts).default('newest'),
};

export const auditTrailFilterSchema = z.object(auditFilterShape);
export type AuditTrailFilter = z.output<typeof auditTrailFilterSchema>;

export const auditTrailQuerySchema = z.object({
  ...auditFilterShape,
  ...pageQueryShape(AUDIT_TRAIL_PAGE_SIZES, 20),
});
export type AuditTrailQuery = z.input<typeof auditTrailQuerySchema>;

/** One changed field in words: a null field is the record itself (a state, a photo). */
export const auditChangeSchema = z.object({
  field: localizedSchema.nullable(),
  before: localizedSchema.nullable(),
  after: localizedSchema.nullable(),
});
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditTrailRowSchema = z.object({
  id: z.number().int(),
  /** ISO instant; shown in UTC+9. */
  occurredAt: z.string(),
  eventType: z.string(),
  eventLabel: localizedSchema,
  userId: z.number().int().nullable(),
  /** The user's name, or the stored label (e-mail, "system") when the record names no user. */
  userName: z.string(),
  /** The roles the actor held, as stored ("PI,SI"); null for the system and older records. */
  role: z.string().nullable(),
  siteId: z.number().int().nullable(),
  siteCode: z.string().nullable(),
  subjectId: z.number().int().nullable(),
  screeningNumber: z.string().nullable(),
  /** Visit, form and item the record is about, when it is about one. */
  visitKey: z.string().nullable(),
  formKey: z.string().nullable(),
  itemKey: z.string().nullable(),
  /** The visit, form and item named by the current study definition (null: the record names none). */
  visitLabel: localizedSchema.nullable(),
  formLabel: localizedSchema.nullable(),
  itemLabel: localizedSchema.nullable(),
  /** What the record is about when no item or form says it, in words ("Query", "Lock · form"). */
  about: localizedSchema.nullable(),
  /**
   * What changed, in words: one line per field, values as the form shows them (a coded answer's
   * label, a photo as "photo", a tracing by its area) — never hashes or internal ids.
   */
  changes: z.array(auditChangeSchema),
  /** The record as stored, for the details toggle: entity type and id ("query 12"). */
  target: z.string(),
  /** Before and after as stored, summarized (`key: value`); for the details toggle. */
  before: z.string().nullable(),
  after: z.string().nullable(),
  reason: z.string().nullable(),
});
export type AuditTrailRow = z.infer<typeof auditTrailRowSchema>;

export const auditTrailResponseSchema = z.object({
  records: z.array(auditTrailRowSchema),
  ...pagedShape,
  /** The filter choices: the event types with their labels, the sites in the reader's scope. */
  eventTypes: z.array(z.object({ type: z.string(), label: localizedSchema })),
  sites: z.array(z.object({ id: z.number().int(), code: z.string() })),
});
export type AuditTrailResponse = z.infer<typeof auditTrailResponseSchema>;

/**
 * What the chain verification says: `intact` up to record `checkedUpTo`, or `broken` from
 * `firstBreakId` (the first record that does not fit, and why); `empty` before any record.
 */
export const auditChainStatusSchema = z.object({
  state: z.enum(['intact', 'broken', 'empty']),
  checkedUpTo: z.number().int().nullable(),
  recordCount: z.number().int(),
  firstBreakId: z.number().int().nullable(),
  problem: z.enum(['hash_mismatch', 'link_mismatch', 'gap', 'head_mismatch']).nullable(),
  breakCount: z.number().int(),
  /** ISO instant of the verification the status reports. */
  checkedAt: z.string(),
});
export type AuditChainStatus = z.infer<typeof auditChainStatusSchema>;
