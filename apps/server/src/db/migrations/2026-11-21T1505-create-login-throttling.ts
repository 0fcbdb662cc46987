import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Failed logins per email address, whether or not an account has it: an unknown address locks
  // just like a real one, so the answers do not tell which addresses exist.
  await db.schema
    .createTable('login_failures')
    .addColumn('email', 'text', (col) => col.primaryKey())
    .addColumn('failure_count', 'integer', (col) => col.notNull())
    .addColumn('first_failure_at', 'timestamptz', (col) => col.notNull())
    .addColumn('locked_until', 'timestamptz')
    .execute();

  // Request counters per key (e.g. "login:<ip>") and fixed time window, shared by all server
  // processes through the database.
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('window_start', 'timestamptz', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['key', 'window_start'])
    .execute();
  await sql`create index rate_limit_counters_window_idx on rate_limit_counters (window_start)`.execute(db);
}
