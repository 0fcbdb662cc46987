import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 51 item 3: per-study blinding — the roles that may see a subject's assigned group. The
  // yes/no `show_randomization_group` it extends meant "everyone who reads the subject" when on
  // (every role with subject.read then; the unblinded desk always sees groups and is not listed) and
  // "only the allocation list's keepers" when off, who see none under this setting (README).
  // A new study starts as the old setting's default did (shown to everyone, in step with
  // `show_randomization_group`'s default true); its keepers blind it before randomizing anyone.
  const everyReader = sql`array['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY']::text[]`;
  await db.schema
    .alterTable('studies')
    .addColumn('group_visible_roles', sql`text[]`, (col) => col.notNull().defaultTo(everyReader))
    .execute();
  await sql`update studies set group_visible_roles = '{}'::text[] where not show_randomization_group`.execute(
    db,
  );

  // Emergency unblinding: one row per subject whose blind the PI broke (never twice).
  await db.schema
    .createTable('subject_unblindings')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().unique().references('subjects.id'))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('unblinded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('unblinded_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('subject_unblindings_study_idx')
    .on('subject_unblindings')
    .column('study_id')
    .execute();
}
