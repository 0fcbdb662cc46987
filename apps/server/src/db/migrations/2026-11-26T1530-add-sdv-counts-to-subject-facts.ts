import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 15 on issue 12's read model: each subject's SDV counts against the plan, kept with its other
  // facts, so the SDV progress by site, the readiness board and the subject-info popup (every page's
  // header) add up one row per subject instead of joining every item value of the trial.
  // (READ_MODEL_VERSION 4 fills them at the next start.)
  await db.schema
    .alterTable('subject_facts')
    .addColumn('sdv_site_rank', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sdv_planned_items', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sdv_verified_items', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sdv_changed_items', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sdv_planned_forms', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sdv_complete_forms', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // A subject's place at its site by registration order (the plan's "first N subjects"), counted
  // for one subject at a time without ranking the whole study.
  await sql`create index subjects_site_registration_idx on subjects (site_id, created_at, id)
    where deleted_at is null`.execute(db);
  // The readiness board's "forms missing required items": only such forms are in this index, so the
  // count follows what is still missing, not the trial's size.
  await sql`create index form_instances_missing_required_idx on form_instances (subject_id)
    where has_data and status = 'dash'`.execute(db);
}
