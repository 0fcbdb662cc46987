import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Images pasted into rich text (notices). Kept in the database so every server process sees
  // them and a backup of the database is a backup of everything.
  await db.schema
    .createTable('uploaded_images')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('uploaded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}
