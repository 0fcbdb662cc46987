import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 18: the notification outbox, which is also the alarm log. A row is written in the same
  // transaction as the event that causes it and delivered later by a worker of any server process,
  // claimed FOR UPDATE SKIP LOCKED, so each message leaves once.
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.references('sites.id'))
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('channel', 'text', (col) => col.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('recipient_user_id', 'integer', (col) => col.references('users.id'))
    .addColumn('recipient_address', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'sending', 'sent', 'failed', 'not_sent')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('last_error', 'text')
    // One message per recipient and occasion: a daily reminder raised twice the same day is one row.
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('notifications_dedupe_key')
    .unique()
    .on('notifications')
    .columns(['dedupe_key', 'channel', 'recipient_address'])
    .where(sql.ref('dedupe_key'), 'is not', null)
    .execute();
  // The worker's claim: due queued rows (and stalled sending ones) oldest first.
  await db.schema
    .createIndex('notifications_due')
    .on('notifications')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), 'in', sql`('queued', 'sending')`)
    .execute();
  // The alarm log: a study's newest first.
  await db.schema
    .createIndex('notifications_study_created')
    .on('notifications')
    .columns(['study_id', 'id'])
    .execute();

  // Which e-mails each user wants, per event type; no row means the default (on).
  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('email', 'boolean', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pkey', ['user_id', 'event_type'])
    .execute();
}
