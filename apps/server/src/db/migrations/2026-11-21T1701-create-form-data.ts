import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // One row per subject × visit × form once anything was saved. `version` grows with every save:
  // a save names the version it started from, and a stale one is refused (optimistic concurrency).
  await db.schema
    .createTable('form_instances')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('has_data', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('none'))
    .addColumn('definition_version', 'text', (col) => col.notNull())
    .addColumn('saved_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('saved_by', 'integer', (col) => col.references('users.id'))
    .addUniqueConstraint('form_instances_subject_visit_form_unique', ['subject_id', 'visit_key', 'form_key'])
    .execute();

  // Item-level values: one row per item of a saved form (a repeating group's rows are one JSON
  // array under the group's key). Derived values are stored too, computed by the server.
  await db.schema
    .createTable('item_values')
    .addColumn('form_instance_id', 'integer', (col) => col.notNull().references('form_instances.id'))
    .addColumn('item_key', 'text', (col) => col.notNull())
    .addColumn('value', 'jsonb', (col) => col.notNull())
    .addColumn('derived', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('definition_version', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (col) => col.references('users.id'))
    .addPrimaryKeyConstraint('item_values_pk', ['form_instance_id', 'item_key'])
    .execute();
}
