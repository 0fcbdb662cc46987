import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The dashboard splits unresolved queries into system and manual ones: with the split in the
  // read model it counts them in the same pass over `subject_facts` as every other figure.
  // (READ_MODEL_VERSION 2 refills the columns at the next start.)
  await db.schema
    .alterTable('subject_facts')
    .addColumn('manual_open_query_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('manual_answered_query_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
