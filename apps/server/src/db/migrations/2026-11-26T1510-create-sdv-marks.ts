import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 15: source data verification, one row per verified item of a saved form (a plain item by
  // its key, a repeating group by the group's key: the keys of `item_values`). `verified_value` is the
  // value as verified. When the value changes the row is kept with state 'changed' ("changed since
  // verified") until the item is verified again; withdrawing a mark deletes the row (both audited).
  // Study, site and subject are repeated from the form's subject so the progress read-outs group
  // without joining back through the subjects for every item.
  await db.schema
    .createTable('sdv_marks')
    .addColumn('form_instance_id', 'integer', (col) => col.notNull().references('form_instances.id'))
    .addColumn('item_key', 'text', (col) => col.notNull())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('verified', 'changed')`))
    .addColumn('verified_value', 'jsonb', (col) => col.notNull())
    .addColumn('verified_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('verified_at', 'timestamptz', (col) => col.notNull())
    .addColumn('changed_at', 'timestamptz')
    .addPrimaryKeyConstraint('sdv_marks_pk', ['form_instance_id', 'item_key'])
    .execute();
  await db.schema.createIndex('sdv_marks_subject_idx').on('sdv_marks').column('subject_id').execute();
  await db.schema
    .createIndex('sdv_marks_study_site_idx')
    .on('sdv_marks')
    .columns(['study_id', 'site_id'])
    .execute();
}
