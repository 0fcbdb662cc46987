import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // An export's chunks are written once, read once or twice, and deleted: compressing each 1 MB
  // row in PostgreSQL (pglz, the default for bytea) cost the database more CPU than writing the
  // export's XML did. EXTERNAL keeps them out of line, uncompressed.
  await sql`alter table data_export_chunks alter column bytes set storage external`.execute(db);
}
