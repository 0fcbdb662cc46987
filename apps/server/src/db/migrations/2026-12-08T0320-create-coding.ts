import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 51 item 2: medical coding. A study's loaded dictionary versions (MedDRA, WHODrug), one active
  // per kind; their terms flattened for search and exact matching (an LLT with its primary path, a
  // drug name with its ATC codes; a translation's names are rows of their own language); the study's
  // synonym list; and one coding assignment per verbatim occurrence (a row of the role's repeating
  // group in a form instance), with the code chosen and its path as coded.
  await db.schema
    .createTable('coding_dictionaries')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('meddra', 'whodrug')`))
    .addColumn('version', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('term_count', 'integer', (col) => col.notNull())
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('loaded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('loaded_at', 'timestamptz', (col) => col.notNull())
    .addUniqueConstraint('coding_dictionaries_version_key', ['study_id', 'kind', 'version'])
    .execute();
  await sql`create unique index coding_dictionaries_active_idx on coding_dictionaries (study_id, kind)
    where active`.execute(db);

  await db.schema
    .createTable('coding_terms')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('dictionary_id', 'integer', (col) => col.notNull().references('coding_dictionaries.id'))
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('name_norm', 'text', (col) => col.notNull())
    .addColumn('current', 'boolean', (col) => col.notNull())
    .addColumn('path', 'jsonb', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('coding_terms_name_idx')
    .on('coding_terms')
    .columns(['dictionary_id', 'name_norm'])
    .execute();
  await db.schema
    .createIndex('coding_terms_code_idx')
    .on('coding_terms')
    .columns(['dictionary_id', 'code'])
    .execute();

  await db.schema
    .createTable('coding_synonyms')
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('verbatim_norm', 'text', (col) => col.notNull())
    .addColumn('verbatim', 'text', (col) => col.notNull())
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('loaded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('loaded_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('coding_synonyms_pk', ['study_id', 'kind', 'verbatim_norm'])
    .execute();

  await db.schema
    .createTable('coding_assignments')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('site_id', 'integer', (col) => col.notNull().references('sites.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('form_instance_id', 'integer', (col) => col.notNull().references('form_instances.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('group_key', 'text', (col) => col.notNull())
    .addColumn('row_index', 'integer', (col) => col.notNull())
    .addColumn('item_key', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('meddra', 'whodrug')`))
    .addColumn('verbatim', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('auto', 'manual', 'pending', 'query')`),
    )
    .addColumn('code', 'text')
    .addColumn('path', 'jsonb')
    .addColumn('dictionary_id', 'integer', (col) => col.references('coding_dictionaries.id'))
    .addColumn('coded_by', 'integer', (col) => col.references('users.id'))
    .addColumn('coded_at', 'timestamptz')
    .addColumn('query_id', 'integer', (col) => col.references('queries.id'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addUniqueConstraint('coding_assignments_place_key', [
      'form_instance_id',
      'group_key',
      'row_index',
      'item_key',
    ])
    .execute();
  await db.schema
    .createIndex('coding_assignments_queue_idx')
    .on('coding_assignments')
    .columns(['study_id', 'status', 'kind'])
    .execute();
  await db.schema
    .createIndex('coding_assignments_subject_idx')
    .on('coding_assignments')
    .column('subject_id')
    .execute();
}
