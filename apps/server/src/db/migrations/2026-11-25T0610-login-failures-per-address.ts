import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Failures were counted per email only, so anyone could lock a known account out from anywhere.
  // Now one row per (email, client address) locks that address out, and one row per email with
  // client_ip '' (every address) only slows further attempts. The old counters are short-lived
  // (15 minutes by default): they are dropped rather than carried over.
  await db.schema.dropTable('login_failures').execute();
  await db.schema
    .createTable('login_failures')
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('client_ip', 'text', (col) => col.notNull())
    .addColumn('failure_count', 'integer', (col) => col.notNull())
    .addColumn('first_failure_at', 'timestamptz', (col) => col.notNull())
    .addColumn('locked_until', 'timestamptz')
    .addPrimaryKeyConstraint('login_failures_pk', ['email', 'client_ip'])
    .execute();
}
