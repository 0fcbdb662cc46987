import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The list sorts screening numbers by code point (`collate "C"`, as the screen compares strings);
  // an index in the database's own collation cannot serve that order, so the first page of a large
  // trial sorted every row. This one can, and replaces it.
  await sql`create index subject_facts_study_screening_c_idx
    on subject_facts (study_id, screening_number collate "C")`.execute(db);
  await db.schema.dropIndex('subject_facts_study_screening_idx').execute();
}
