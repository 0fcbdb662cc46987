import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // A user holds one or more roles per study; site-scoped roles name their sites.
  await db.schema
    .createTable('memberships')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('role', 'text', (col) =>
      col.notNull().check(sql`role in ('PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('memberships_user_study_role_unique', ['user_id', 'study_id', 'role'])
    .execute();

  await db.schema
    .createTable('membership_sites')
    .addColumn('membership_id', 'integer', (col) =>
      col.notNull().references('memberships.id').onDelete('cascade'),
    )
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addPrimaryKeyConstraint('membership_sites_pk', ['membership_id', 'site_id'])
    .execute();
}
