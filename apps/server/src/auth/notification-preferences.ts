import {
  type NotificationPreference,
  type NotificationPreferencesResponse,
  notificationEventTypes,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';

/** The user's e-mail choice per event type: on unless turned off (no row is the default). */
export async function readNotificationPreferences(
  db: Kysely<Database>,
  userId: number,
): Promise<NotificationPreferencesResponse> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['event_type', 'email'])
    .where('user_id', '=', userId)
    .execute();
  const chosen = new Map(rows.map((row) => [row.event_type, row.email]));
  return {
    preferences: notificationEventTypes.map((eventType) => ({
      eventType,
      email: chosen.get(eventType) ?? true,
    })),
  };
}

/** Changes the user's own choices (the others stay), audited with what changed; unchanged writes nothing. */
export async function updateNotificationPreferences(
  db: Kysely<Database>,
  actor: AuditActor,
  userId: number,
  preferences: readonly NotificationPreference[],
): Promise<NotificationPreferencesResponse> {
  await inTransaction(db, async (trx) => {
    const current = new Map(
      (await readNotificationPreferences(trx, userId)).preferences.map((entry) => [
        entry.eventType,
        entry.email,
      ]),
    );
    const changed = preferences.filter((entry) => current.get(entry.eventType) !== entry.email);
    if (changed.length === 0) return;
    await trx
      .insertInto('notification_preferences')
      .values(changed.map((entry) => ({ user_id: userId, event_type: entry.eventType, email: entry.email })))
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'event_type'])
          .doUpdateSet((eb) => ({ email: eb.ref('excluded.email') })),
      )
      .execute();
    await recordAudit(trx, actor, {
      type: 'user.notification_preferences_changed',
      entityType: 'user',
      entityId: userId,
      before: Object.fromEntries(changed.map((entry) => [entry.eventType, current.get(entry.eventType)])),
      after: Object.fromEntries(changed.map((entry) => [entry.eventType, entry.email])),
    });
  });
  return readNotificationPreferences(db, userId);
}
