import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 16: export jobs. Several server processes share one database, so a job, its progress and
  // its output live here: any process may run a queued job, any may serve the finished file.
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('requested_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('options', 'jsonb', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('queued', 'running', 'done', 'failed', 'cancelled')`),
    )
    .addColumn('values_total', 'integer')
    .addColumn('values_done', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('subjects_done', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    // Touched while a job runs: a running job whose heartbeat stopped was left by a dead process.
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // The run of the process that claimed the job: a reclaimed job's old runner can no longer write.
    .addColumn('runner', 'text')
    .addColumn('file_name', 'text')
    .addColumn('content_type', 'text')
    .addColumn('byte_size', 'bigint')
    .addColumn('sha256', 'text')
    .execute();
  // The study's recent exports, newest first (the list page).
  await db.schema
    .createIndex('data_exports_study_recent_idx')
    .on('data_exports')
    .columns(['study_id', 'id desc'])
    .execute();
  // The runner's claim: the oldest queued job, or a running one whose heartbeat stopped.
  await sql`create index data_exports_open_idx on data_exports (state, id) where state in ('queued', 'running')`.execute(
    db,
  );
  await db.schema
    .createTable('data_export_chunks')
    .addColumn('export_id', 'integer', (col) =>
      col.notNull().references('data_exports.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    .addPrimaryKeyConstraint('data_export_chunks_pk', ['export_id', 'seq'])
    .execute();
}
