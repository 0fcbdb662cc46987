import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { pagedShape, pageQueryShape, paramIdSchema } from './ids.ts';
import { notificationChannels, notificationEventTypes } from './notifications.ts';

/**
 * The alarm log (issue 18 item 4; CRA menu `/alarm-log/{id}`): every notification the system raised
 * for a study — task notices, queries, casebooks to sign, overdue visits, holds — with its recipient,
 * channel, time and delivery status, read from the notification outbox. Read by CRA, DM and ADMIN
 * (`alarm_log.read`) over their sites; messages about the whole study (a study freeze) to all of them.
 */

/** A message being handed to the mail server shows as queued: it has not left yet. */
export const alarmLogStatuses = ['queued', 'sent', 'failed', 'not_sent'] as const;
export type AlarmLogStatus = (typeof alarmLogStatuses)[number];

export const ALARM_LOG_PAGE_SIZES = [20, 50, 100] as const;

export const alarmLogParamsSchema = z.object({ studyId: paramIdSchema });

export const alarmLogQuerySchema = z.object({
  eventType: z.enum(notificationEventTypes).optional(),
  channel: z.enum(notificationChannels).optional(),
  status: z.enum(alarmLogStatuses).optional(),
  siteId: paramIdSchema.optional(),
  /** Raised on or after this day (UTC+9). */
  from: calendarDateSchema.optional(),
  /** Raised on or before this day (UTC+9). */
  to: calendarDateSchema.optional(),
  /** Part of the recipient's name or address; case-insensitive. */
  recipient: z.string().trim().max(100).optional(),
  ...pageQueryShape(ALARM_LOG_PAGE_SIZES, 20),
});
export type AlarmLogQuery = z.input<typeof alarmLogQuerySchema>;

/** The log as a file: the page's filters without the paging, and the format. */
export const alarmLogDownloadQuerySchema = alarmLogQuerySchema
  .omit({ page: true, size: true })
  .extend({ format: z.enum(['csv', 'xlsx']) });

export const alarmLogEntrySchema = z.object({
  id: z.number().int(),
  /** When the notification was raised (ISO instant). */
  createdAt: z.string(),
  eventType: z.enum(notificationEventTypes),
  channel: z.enum(notificationChannels),
  /** Null: about the whole study. */
  siteId: z.number().int().nullable(),
  site: z.string().nullable(),
  recipientName: z.string().nullable(),
  recipientAddress: z.string(),
  subject: z.string(),
  status: z.enum(alarmLogStatuses),
  attempts: z.number().int(),
  /** Why the last attempt failed, or why it was not sent. */
  error: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type AlarmLogEntry = z.infer<typeof alarmLogEntrySchema>;

export const alarmLogResponseSchema = z.object({
  entries: z.array(alarmLogEntrySchema),
  ...pagedShape,
});
export type AlarmLogResponse = z.infer<typeof alarmLogResponseSchema>;
