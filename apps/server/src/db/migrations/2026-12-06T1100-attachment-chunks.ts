import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 43: an attachment's bytes as chunks of 1 MB, not one bytea of up to 20 MB. One value of
  // that size had to be built whole in the server's memory on the way in and out (and PGlite's codec
  // made ~100 bytes of heap of each byte: a 5 MB upload ran the 192 MB heap out). Chunks are keyed
  // by the content's SHA-256, which the attachment row already holds: a guideline's new version
  // copies its attachment rows and shares their chunks, and the same file uploaded twice is stored
  // once. Rows are never deleted (attachments are kept for the audit trail), so no chunk is orphaned.
  await db.schema
    .createTable('attachment_chunks')
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pkey', ['sha256', 'seq'])
    .execute();
  // Existing files become one chunk each (a chunk may be any size; new ones are 1 MB).
  await sql`insert into attachment_chunks (sha256, seq, bytes)
    select distinct on (sha256) sha256, 0, bytes from attachments order by sha256
    on conflict do nothing`.execute(db);
  await db.schema.alterTable('attachments').dropColumn('bytes').execute();
}
