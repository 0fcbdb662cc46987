import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The audit trail (product.md "Audit trail"): append-only and hash-chained. Each record carries
  // the hash of the one before it, so changing or removing a record breaks the chain.
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('occurred_at', 'timestamptz', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_label', 'text', (col) => col.notNull())
    .addColumn('entity_type', 'text', (col) => col.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('study_id', 'integer')
    .addColumn('site_id', 'integer')
    .addColumn('subject_id', 'integer')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('reason', 'text')
    .addColumn('ip', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('request_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('previous_hash', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('audit_events_entity_idx')
    .on('audit_events')
    .columns(['entity_type', 'entity_id'])
    .execute();
  await db.schema
    .createIndex('audit_events_study_idx')
    .on('audit_events')
    .columns(['study_id', 'occurred_at'])
    .execute();

  // One row holds the end of the chain. Writers update it in their transaction, which makes
  // concurrent writers take turns (row lock) and keeps the chain a single line.
  await db.schema
    .createTable('audit_chain_head')
    .addColumn('singleton', 'boolean', (col) => col.primaryKey().defaultTo(true).check(sql`singleton`))
    .addColumn('last_id', 'bigint', (col) => col.notNull())
    .addColumn('last_hash', 'text', (col) => col.notNull())
    .execute();
  await sql`insert into audit_chain_head (singleton, last_id, last_hash) values (true, 0, ${'0'.repeat(64)})`.execute(
    db,
  );

  // The database itself refuses to change or delete audit records, whoever asks.
  await sql`
    create function audit_events_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % is not allowed', tg_op;
    end;
    $$`.execute(db);
  await sql`
    create trigger audit_events_append_only
    before update or delete on audit_events
    for each row execute function audit_events_refuse_change()`.execute(db);
  await sql`
    create trigger audit_events_no_truncate
    before truncate on audit_events
    for each statement execute function audit_events_refuse_change()`.execute(db);
}
