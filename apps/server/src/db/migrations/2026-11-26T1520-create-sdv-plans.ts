import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 15: the targeted SDV plan of a study (DM, ADMIN): every item, or critical items plus every
  // item of the first N subjects of each site. A study without a row verifies every item.
  await db.schema
    .createTable('sdv_plans')
    .addColumn('study_id', 'integer', (col) => col.primaryKey().references('studies.id'))
    .addColumn('mode', 'text', (col) => col.notNull().check(sql`mode in ('all', 'critical')`))
    .addColumn('first_subjects_per_site', 'integer', (col) =>
      col.notNull().check(sql`first_subjects_per_site between 0 and 1000`),
    )
    .addColumn('updated_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}
