import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // One TOTP secret per user (RFC 6238). confirmed_at is null while enrolment is pending: the
  // factor counts only once the user has proved with a code that the authenticator holds it.
  // last_time_step is the time step of the last accepted code, so the same code is never accepted twice.
  // The secret is stored as is (base32): it is never sent back by any API after enrolment starts.
  await db.schema
    .createTable('user_second_factors')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('last_time_step', 'integer')
    .execute();

  // A correct password for a user with a second factor gives only this: a short-lived token, bound to
  // the user, that the code step exchanges for a session. Only the token's hash is stored.
  await db.schema
    .createTable('pending_logins')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
}
