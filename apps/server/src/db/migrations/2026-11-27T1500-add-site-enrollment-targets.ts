import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 17: each site's contracted enrollment (randomized subjects), kept by data management;
  // null means the study definition's per-site default applies.
  await db.schema
    .alterTable('sites')
    .addColumn('enrollment_target', 'integer', (col) => col.check(sql`enrollment_target > 0`))
    .execute();
}
