import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // One message per occasion, channel and recipient. Keyed by the address, two people without a phone
  // number (both '') collided: the second one's "not sent" text message was dropped, not recorded.
  await db.schema.dropIndex('notifications_dedupe_key').execute();
  await db.schema
    .createIndex('notifications_dedupe_key')
    .unique()
    .on('notifications')
    .columns(['dedupe_key', 'channel', 'recipient_user_id'])
    .where(sql.ref('dedupe_key'), 'is not', null)
    .execute();
}
