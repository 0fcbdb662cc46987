import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 18: files attached to study documents (guidelines, task notices; eTraining later). Bytes in
  // the database like uploaded_images, so every process sees them and a backup holds them. The type is
  // sniffed from the bytes at upload. A file is uploaded first (owner null) and claimed by the
  // document that is saved with it: owner_kind + owner_id, so other features reuse the table.
  await db.schema
    .createTable('attachments')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('owner_kind', 'text')
    .addColumn('owner_id', 'integer')
    .addColumn('file_name', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    .addColumn('uploaded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('attachments_owner_pair', sql`(owner_kind is null) = (owner_id is null)`)
    .execute();
  await db.schema
    .createIndex('attachments_owner')
    .on('attachments')
    .columns(['owner_kind', 'owner_id'])
    .where(sql.ref('owner_kind'), 'is not', null)
    .execute();
}
