import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The subject list's "unresolved queries" sort: `unresolved_query_count` (migration 2026-11-30T1300)
  // was always open + answered of the same row, a second copy kept only so that an index could
  // serve the sort. An index on the sum itself serves it without the copy; the list's ORDER BY
  // names the same expression (subjects/subject-list.ts), which is how PostgreSQL matches the two.
  await db.schema.alterTable('subject_facts').dropColumn('unresolved_query_count').execute();
  await sql`create index subject_facts_study_unresolved_idx on subject_facts
    (study_id, (open_query_count + answered_query_count) desc nulls last, screening_number collate "C", subject_id)`.execute(
    db,
  );
}
