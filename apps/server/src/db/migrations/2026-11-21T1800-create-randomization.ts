import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The concealed allocation list, one sequence per site (stratum). A slot is used once: the
  // assignment takes the lowest free slot under a row lock, so concurrent randomizations — even on
  // several server processes — never share a slot.
  await db.schema
    .createTable('randomization_slots')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('sequence', 'integer', (col) => col.notNull().check(sql`sequence between 1 and 999`))
    .addColumn('treatment_group', 'text', (col) =>
      col.notNull().check(sql`treatment_group in ('treatment', 'control')`),
    )
    .addColumn('block_number', 'integer', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('subject_id', 'integer', (col) => col.references('subjects.id').unique())
    .addColumn('assigned_at', 'timestamptz')
    .addColumn('assigned_by', 'integer', (col) => col.references('users.id'))
    .addUniqueConstraint('randomization_slots_site_sequence_unique', ['study_id', 'site_id', 'sequence'])
    .execute();

  // Who may see the assigned group is a study setting (open-label by default).
  await db.schema
    .alterTable('studies')
    .addColumn('show_randomization_group', 'boolean', (col) => col.notNull().defaultTo(true))
    .execute();
}
