import { z } from 'zod';
import { attachmentSchema } from './attachments.ts';
import { calendarDateSchema } from './calendar-date.ts';
import { pagedShape, pageQueryShape } from './ids.ts';
import { changesSomething, nothingToChange } from './request-body.ts';

/**
 * Issue 18: study guidelines (prototype-spec §2 "Guideline list", §3 Guideline). A guideline is
 * written as a draft, edited freely, then published (readers see it) and later retired. A published
 * guideline is not edited in place: "new version" copies it into a draft with the next version, and
 * publishing that draft retires the one it supersedes — readers always see one valid version.
 */
export const guidelineTypes = ['protocol', 'crf_guideline', 'lab_manual', 'other'] as const;
export type GuidelineType = (typeof guidelineTypes)[number];
export const guidelineStates = ['draft', 'published', 'retired'] as const;
export type GuidelineState = (typeof guidelineStates)[number];

/** The code list's labels in both languages (server messages and the browser read the same). */
export const guidelineTypeLabels: Record<GuidelineType, { ko: string; en: string }> = {
  protocol: { ko: '임상시험계획서', en: 'Protocol' },
  crf_guideline: { ko: 'CRF 작성 지침', en: 'CRF completion guideline' },
  lab_manual: { ko: '검사 매뉴얼', en: 'Lab manual' },
  other: { ko: '기타', en: 'Other' },
};

export const GUIDELINE_TITLE_MAX = 200;
export const GUIDELINE_CONTENT_MAX = 200_000;
export const GUIDELINE_VERSION_MAX = 20;
export const GUIDELINE_ATTACHMENTS_MAX = 10;

export const guidelineListQuerySchema = z.object({
  type: z.enum(guidelineTypes).optional(),
  state: z.enum(guidelineStates).optional(),
  search: z.string().trim().max(100).optional(),
  ...pageQueryShape([10, 20, 50], 10),
});
export type GuidelineListQuery = z.input<typeof guidelineListQuerySchema>;

export const guidelineSummarySchema = z.object({
  id: z.number().int(),
  no: z.number().int(),
  guideType: z.enum(guidelineTypes),
  title: z.string(),
  writer: z.string(),
  /** When it was registered (ISO 8601, UTC). */
  createdAt: z.string(),
  version: z.string(),
  effectiveDate: z.string(),
  alarmStart: z.string().nullable(),
  alarmEnd: z.string().nullable(),
  state: z.enum(guidelineStates),
  attachmentCount: z.number().int(),
  /** Today (UTC+9) lies in its alarm period and it is published: readers are reminded. */
  alarming: z.boolean(),
});
export type GuidelineSummary = z.infer<typeof guidelineSummarySchema>;

export const guidelineListResponseSchema = z.object({
  guidelines: z.array(guidelineSummarySchema),
  ...pagedShape,
  canWrite: z.boolean(),
  /** Published guidelines in their alarm period today, whatever the filters: the reminder banner. */
  reminders: z.array(z.object({ id: z.number().int(), title: z.string(), version: z.string() })),
});
export type GuidelineListResponse = z.infer<typeof guidelineListResponseSchema>;

/**
 * What the reader may do with a guideline now, as the server decides it (writer, state, an open draft
 * of a new version): edit, publish or delete a draft; revise (new version) and retire a published one.
 */
export const guidelineActions = ['edit', 'publish', 'delete', 'revise', 'retire'] as const;
export type GuidelineAction = (typeof guidelineActions)[number];

export const guidelineDetailSchema = guidelineSummarySchema.extend({
  contentHtml: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
  supersedesId: z.number().int().nullable(),
  attachments: z.array(attachmentSchema),
  canEdit: z.boolean(),
  actions: z.array(z.enum(guidelineActions)),
  /** A draft of this guideline's next version, when one is being written (writers only). */
  openDraftId: z.number().int().nullable(),
});
export type GuidelineDetail = z.infer<typeof guidelineDetailSchema>;

const versionSchema = z
  .string()
  .trim()
  .min(1, { error: 'version_required' })
  .max(GUIDELINE_VERSION_MAX)
  .regex(/^[0-9A-Za-z][0-9A-Za-z.-]*$/, { error: 'invalid_version' });

const guidelineFields = {
  guideType: z.enum(guidelineTypes),
  title: z.string().trim().min(1, { error: 'title_required' }).max(GUIDELINE_TITLE_MAX),
  contentHtml: z.string().min(1, { error: 'content_required' }).max(GUIDELINE_CONTENT_MAX),
  version: versionSchema,
  effectiveDate: calendarDateSchema,
  /** Both or neither (the server refuses one alone and a start after the end). */
  alarmStart: calendarDateSchema.nullable(),
  alarmEnd: calendarDateSchema.nullable(),
  /** Uploaded attachments (`POST …/attachments`) this draft carries, in order. */
  attachmentIds: z.array(z.uuid()).max(GUIDELINE_ATTACHMENTS_MAX),
};

export const guidelineWriteSchema = z.strictObject({
  ...guidelineFields,
  alarmStart: guidelineFields.alarmStart.default(null),
  alarmEnd: guidelineFields.alarmEnd.default(null),
  attachmentIds: guidelineFields.attachmentIds.default([]),
});
export type GuidelineWrite = z.input<typeof guidelineWriteSchema>;

/** A partial edit of a draft. */
export const guidelineUpdateSchema = z
  .strictObject(guidelineFields)
  .partial()
  .refine(changesSomething, nothingToChange);
export type GuidelineUpdate = z.input<typeof guidelineUpdateSchema>;

/** A new version of a published guideline: a draft copy with this version. */
export const guidelineRevisionSchema = z.strictObject({ version: versionSchema });
export type GuidelineRevision = z.input<typeof guidelineRevisionSchema>;
