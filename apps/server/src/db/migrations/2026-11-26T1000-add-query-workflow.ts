import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 14: queries get a workflow (answer, close, cancel, reopen) and a thread of messages.
  // - `assignee`: who is asked to act next (the site by default);
  // - `reopened`: sent back to open at least once (the list shows it);
  // - `closed_over_check`: see below;
  // - `last_message_at`, `message_count`: kept by every message, so the list sorts and shows them
  //   without reading the threads.
  await db.schema
    .alterTable('queries')
    .addColumn('assignee', 'text', (col) =>
      col.notNull().defaultTo('site').check(sql`assignee in ('site', 'monitor', 'dataManagement')`),
    )
    .addColumn('reopened', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('last_message_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('message_count', 'integer', (col) => col.notNull().defaultTo(0))
    // A system query a person closed while its check still failed: the check does not raise it
    // again on later saves until the item's value changes.
    .addColumn('closed_over_check', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();

  // One row per message of a query's thread: who wrote it (null for the system) in which role at the
  // time, what (in both languages: a person's words are the same in both), and an optional value.
  await db.schema
    .createTable('query_messages')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('query_id', 'integer', (col) => col.notNull().references('queries.id'))
    .addColumn('kind', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`kind in ('opened', 'answer', 'comment', 'close', 'cancel', 'reopen', 'value_changed', 'closed_by_check')`,
        ),
    )
    .addColumn('text', 'jsonb', (col) => col.notNull())
    .addColumn('author_user_id', 'integer', (col) => col.references('users.id'))
    .addColumn('author_role', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('proposed_value', 'jsonb')
    .execute();
  await db.schema
    .createIndex('query_messages_query_idx')
    .on('query_messages')
    .columns(['query_id', 'id'])
    .execute();

  // The list filters by study, then site and state, and sorts by age or last message.
  await db.schema
    .createIndex('queries_study_status_opened_idx')
    .on('queries')
    .columns(['study_id', 'status', 'opened_at'])
    .execute();
  await db.schema
    .createIndex('queries_study_site_status_idx')
    .on('queries')
    .columns(['study_id', 'site_id', 'status'])
    .execute();
  await db.schema
    .createIndex('queries_study_last_message_idx')
    .on('queries')
    .columns(['study_id', 'last_message_at'])
    .execute();

  // The threads of the queries that exist already (system queries): the check's message as the
  // opening one, and the system's closure for those the check closed.
  await sql`
    insert into query_messages (query_id, kind, text, author_user_id, created_at)
    select id, 'opened', message, opened_by, opened_at from queries`.execute(db);
  await sql`
    insert into query_messages (query_id, kind, text, created_at)
    select id, 'closed_by_check',
      '{"ko":"데이터가 더 이상 점검 조건에 해당하지 않아 시스템이 종료했습니다.","en":"The data no longer fail the check (closed by the system)."}'::jsonb,
      closed_at
    from queries where status = 'closed' and closed_at is not null`.execute(db);
  await sql`
    update queries set
      message_count = (select count(*) from query_messages m where m.query_id = queries.id),
      last_message_at = coalesce((select max(created_at) from query_messages m where m.query_id = queries.id), opened_at)`.execute(
    db,
  );
}
