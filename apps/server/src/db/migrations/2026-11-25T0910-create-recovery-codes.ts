import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // One-time recovery codes of a user's second factor (a lost phone). Only a hash of each code is
  // stored (see auth/recovery-codes.ts for why SHA-256); used_at is set when a code signs someone in,
  // after which it is refused. Regenerating deletes the old set. The factor's removal removes them too.
  await db.schema
    .createTable('second_factor_recovery_codes')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().references('user_second_factors.user_id').onDelete('cascade'),
    )
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .addUniqueConstraint('second_factor_recovery_codes_user_code', ['user_id', 'code_hash'])
    .execute();
}
