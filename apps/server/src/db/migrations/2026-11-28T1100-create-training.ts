import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 18 item 5: training modules per study, required for some study roles, with an optional quiz.
  // `version` counts content changes once the module was published: a completion names the version it
  // was for, and only the current one counts. Attachments are linked elsewhere by the module's id.
  await db.schema
    .createTable('training_modules')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('content_html', 'text', (col) => col.notNull())
    .addColumn('roles', sql`text[]`, (col) => col.notNull())
    .addColumn('quiz', 'jsonb')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1).check(sql`version >= 1`))
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('draft', 'published')`))
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('training_modules_has_roles', sql`cardinality(roles) >= 1`)
    .execute();
  await db.schema
    .createIndex('training_modules_study_idx')
    .on('training_modules')
    .column('study_id')
    .execute();
  // One completion per user, module and version: marking again or passing again changes nothing.
  await db.schema
    .createTable('training_completions')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('module_id', 'integer', (col) => col.notNull().references('training_modules.id'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('score', 'integer')
    .addColumn('completed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('training_completions_once', ['module_id', 'user_id', 'version'])
    .execute();
  await db.schema
    .createIndex('training_completions_user_idx')
    .on('training_completions')
    .columns(['user_id', 'module_id'])
    .execute();
  // The study setting: data entry waits until a site user completed the required modules (off by default).
  await db.schema
    .alterTable('studies')
    .addColumn('training_gates_data_entry', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}
