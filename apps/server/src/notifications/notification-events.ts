/**
 * What the system notifies people of (issue 18). Each event type is a choice in the user's e-mail
 * preferences; a task notice is the only one that can also go by SMS (the notice chooses its channels).
 */
export const notificationEventTypes = [
  'task_notice',
  'query_opened',
  'query_answered',
  'casebook_to_sign',
  'visit_overdue',
  'site_hold',
] as const;
export type NotificationEventType = (typeof notificationEventTypes)[number];

export const notificationChannels = ['email', 'sms'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

/** A message in both languages: each recipient gets it in their own (`users.locale`). */
export interface NotificationMessage {
  subject: { ko: string; en: string };
  body: { ko: string; en: string };
}
