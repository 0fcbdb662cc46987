import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Settings of the whole installation, changed by a system administrator. One row (singleton is
  // always true) with one typed column per setting: a new setting is a new column in a new migration.
  // second_factor_required_for_admin_dm: system administrators and holders of ADMIN or DM in any
  // study must enrol a second factor before they may do anything else.
  await db.schema
    .createTable('system_settings')
    .addColumn('singleton', 'boolean', (col) => col.primaryKey().defaultTo(true).check(sql`singleton`))
    .addColumn('second_factor_required_for_admin_dm', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.insertInto('system_settings').values({ singleton: true }).execute();
}
