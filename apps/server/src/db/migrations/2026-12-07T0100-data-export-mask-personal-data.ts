import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 47 item 3: an export may withhold the values of the items its study definition flags as
  // personal data (`personalData: true`). Its own column, not a key of `options`, so which exports
  // left personal data out is one plain question to the table; the exports made before were not masked.
  await db.schema
    .alterTable('data_exports')
    .addColumn('mask_personal_data', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}
