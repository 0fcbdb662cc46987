import { z } from 'zod';

/**
 * Notifications (issue 18). The events the system tells people of; each is a choice in the user's
 * e-mail preferences (`GET/PUT /api/auth/notification-preferences`, own account only). A task notice
 * is the only event that can also go by SMS (the notice chooses its channels).
 *
 *   task_notice       a task notice addressed to your role or site
 *   query_opened      a query opened on your site (PI, SI, CRC)
 *   query_answered    a query answered on your site (CRA, and the query's opener)
 *   casebook_to_sign  signed data changed: sign the casebook again (PI)
 *   visit_overdue     once a day: your site's visits whose window closed without a date (PI, SI, CRC)
 *   site_hold         your site (or the study) frozen or locked (PI, SI, CRC, CRA)
 */
export const notificationEventTypes = [
  'task_notice',
  'query_opened',
  'query_answered',
  'casebook_to_sign',
  'visit_overdue',
  'site_hold',
  'blind_broken',
  'sae_report',
] as const;
export type NotificationEventType = (typeof notificationEventTypes)[number];

export const notificationChannels = ['email', 'sms'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

export const notificationPreferenceSchema = z.strictObject({
  eventType: z.enum(notificationEventTypes),
  /** E-mails of this event: on unless the user turned them off. */
  email: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;

/** Every event type once, in the list's order. */
export const notificationPreferencesResponseSchema = z.object({
  preferences: z.array(notificationPreferenceSchema),
});
export type NotificationPreferencesResponse = z.infer<typeof notificationPreferencesResponseSchema>;

/** The choices to change (others stay); an event type at most once. */
export const updateNotificationPreferencesRequestSchema = z.strictObject({
  preferences: z
    .array(notificationPreferenceSchema)
    .min(1)
    .max(notificationEventTypes.length)
    .refine((list) => new Set(list.map((entry) => entry.eventType)).size === list.length, {
      message: 'each event type at most once',
    }),
});
export type UpdateNotificationPreferencesRequest = z.infer<typeof updateNotificationPreferencesRequestSchema>;
