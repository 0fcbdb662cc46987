export type { NotificationChannel, NotificationEventType } from '@cdms/contract';
export { notificationChannels, notificationEventTypes } from '@cdms/contract';

/** A message in both languages: each recipient gets it in their own (`users.locale`). */
export interface NotificationMessage {
  subject: { ko: string; en: string };
  body: { ko: string; en: string };
}
