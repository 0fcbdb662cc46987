import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 18: task notices addressed to roles and/or sites of a study, sent by e-mail and/or SMS
  // through the notification outbox when their period starts (enqueued_at set then). The state is
  // read from the outbox rows (dedupe key `task_notice:<id>`).
  await db.schema
    .createTable('task_notices')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('alarm_type', 'text', (col) =>
      col.notNull().check(sql`alarm_type in ('general', 'schedule', 'safety', 'data_entry', 'training')`),
    )
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('roles', 'jsonb', (col) => col.notNull())
    .addColumn('site_ids', 'jsonb', (col) => col.notNull())
    .addColumn('period_start', 'date', (col) => col.notNull())
    .addColumn('period_end', 'date', (col) => col.notNull())
    .addColumn('email', 'boolean', (col) => col.notNull())
    .addColumn('sms', 'boolean', (col) => col.notNull())
    .addColumn('enqueued_at', 'timestamptz')
    .addColumn('recipient_count', 'integer')
    .addColumn('author_user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('task_notices_period', sql`period_start <= period_end`)
    .addCheckConstraint('task_notices_channel', sql`email or sms`)
    .execute();
  await db.schema
    .createIndex('task_notices_study_created')
    .on('task_notices')
    .columns(['study_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('task_notices_due')
    .on('task_notices')
    .column('period_start')
    .where(sql.ref('enqueued_at'), 'is', null)
    .execute();
}
