import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type {
  NotificationChannel,
  NotificationEventType,
  NotificationMessage,
} from './notification-events.ts';

export interface NotificationRequest {
  eventType: NotificationEventType;
  studyId: number | null;
  siteId: number | null;
  recipientUserIds: readonly number[];
  /** E-mail unless the event says otherwise (a task notice may add SMS). */
  channels?: readonly NotificationChannel[];
  message: NotificationMessage;
  /** One message per recipient, channel and key: a reminder raised twice is written once. */
  dedupeKey?: string;
}

/**
 * Writes the outbox rows of one event in the caller's transaction — the event and its notifications
 * commit together or not at all — one per recipient and channel, in the recipient's language. E-mails
 * a user turned off for this event type are not written. A recipient without an address for the
 * channel (SMS without a phone number) gets a row marked "not sent" with the reason's code, so the
 * alarm log shows it in its reader's language. Returns the number of rows written.
 */
export async function enqueueNotification(
  trx: Transaction<Database>,
  request: NotificationRequest,
): Promise<number> {
  const recipients = [...new Set(request.recipientUserIds)];
  if (recipients.length === 0) return 0;
  const channels = request.channels ?? ['email'];
  const users = await trx
    .selectFrom('users')
    .leftJoin('notification_preferences as p', (join) =>
      join.onRef('p.user_id', '=', 'users.id').on('p.event_type', '=', request.eventType),
    )
    .select(['users.id', 'users.email', 'users.contact', 'users.locale', 'p.email as wants_email'])
    .where('users.id', 'in', recipients)
    .where('users.active', '=', true)
    .execute();
  const rows = users.flatMap((user) =>
    channels.flatMap((channel) => {
      if (channel === 'email' && user.wants_email === false) return [];
      const address = channel === 'email' ? user.email : user.contact.trim();
      const language = user.locale;
      return [
        {
          study_id: request.studyId,
          site_id: request.siteId,
          event_type: request.eventType,
          channel,
          recipient_user_id: user.id,
          recipient_address: address,
          subject: request.message.subject[language],
          // Both languages for the alarm log, which its reader reads in theirs.
          subject_texts: JSON.stringify(request.message.subject),
          body: request.message.body[language],
          dedupe_key: request.dedupeKey ?? null,
          ...(address === '' ? { status: 'not_sent' as const, last_error_code: 'no_phone_number' } : {}),
        },
      ];
    }),
  );
  if (rows.length === 0) return 0;
  const written = await trx
    .insertInto('notifications')
    .values(rows)
    .onConflict((conflict) =>
      conflict
        .columns(['dedupe_key', 'channel', 'recipient_user_id'])
        .where('dedupe_key', 'is not', null)
        .doNothing(),
    )
    .returning('id')
    .execute();
  return written.length;
}
