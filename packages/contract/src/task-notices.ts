import { z } from 'zod';
import { attachmentSchema } from './attachments.ts';
import { calendarDateSchema } from './calendar-date.ts';
import { bodyIdSchema, pagedShape, pageQueryShape } from './ids.ts';
import { roles } from './roles.ts';

/**
 * Issue 18: task notices (prototype-spec §2 "Task-notice list"): a notice addressed to roles and/or
 * sites of a study, sent by e-mail and/or SMS through the notification outbox when its period starts.
 * The state is read from the outbox: scheduled (period not started), queued (messages waiting), sent
 * (every message delivered), partly sent (some delivered, the others failed or could not be sent: no
 * SMTP, no phone number), failed (none delivered).
 */
export const taskNoticeTypes = ['general', 'schedule', 'safety', 'data_entry', 'training'] as const;
export type TaskNoticeType = (typeof taskNoticeTypes)[number];
export const taskNoticeStates = ['scheduled', 'queued', 'sent', 'partly_sent', 'failed'] as const;
export type TaskNoticeState = (typeof taskNoticeStates)[number];

export const TASK_NOTICE_TITLE_MAX = 200;
export const TASK_NOTICE_CONTENT_MAX = 2000;

export const taskNoticeListQuerySchema = z.object({
  type: z.enum(taskNoticeTypes).optional(),
  search: z.string().trim().max(100).optional(),
  ...pageQueryShape([10, 20, 50], 10),
});
export type TaskNoticeListQuery = z.input<typeof taskNoticeListQuerySchema>;

export const taskNoticeSchema = z.object({
  id: z.number().int(),
  no: z.number().int(),
  alarmType: z.enum(taskNoticeTypes),
  title: z.string(),
  content: z.string(),
  writer: z.string(),
  createdAt: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  roles: z.array(z.enum(roles)),
  siteIds: z.array(z.number().int()),
  email: z.boolean(),
  sms: z.boolean(),
  attachment: attachmentSchema.nullable(),
  state: z.enum(taskNoticeStates),
  /** Outbox rows written (recipients × channels), null before the period starts. */
  messages: z.number().int().nullable(),
  /** Of those, delivered; null before the period starts. */
  delivered: z.number().int().nullable(),
});
export type TaskNotice = z.infer<typeof taskNoticeSchema>;

export const taskNoticeListResponseSchema = z.object({
  taskNotices: z.array(taskNoticeSchema),
  ...pagedShape,
  canWrite: z.boolean(),
});
export type TaskNoticeListResponse = z.infer<typeof taskNoticeListResponseSchema>;

/** Roles, sites or both (an empty list means "any"); at least one of them named. */
export const taskNoticeWriteSchema = z
  .strictObject({
    alarmType: z.enum(taskNoticeTypes),
    title: z.string().trim().min(1, { error: 'title_required' }).max(TASK_NOTICE_TITLE_MAX),
    content: z.string().trim().min(1, { error: 'content_required' }).max(TASK_NOTICE_CONTENT_MAX),
    roles: z.array(z.enum(roles)).max(roles.length).default([]),
    siteIds: z.array(bodyIdSchema).max(200).default([]),
    periodStart: calendarDateSchema,
    periodEnd: calendarDateSchema,
    email: z.boolean(),
    sms: z.boolean(),
    attachmentId: z.uuid().nullable().default(null),
  })
  .refine((notice) => notice.email || notice.sms, { error: 'channel_required', path: ['email'] })
  .refine((notice) => notice.roles.length > 0 || notice.siteIds.length > 0, {
    error: 'audience_required',
    path: ['roles'],
  })
  .refine((notice) => notice.periodStart <= notice.periodEnd, {
    error: 'start_after_end',
    path: ['periodEnd'],
  });
export type TaskNoticeWrite = z.input<typeof taskNoticeWriteSchema>;
