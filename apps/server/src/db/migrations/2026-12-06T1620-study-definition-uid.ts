import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // A process keeps each definition it parsed (studies/study-definitions.ts), keyed by this: unique in
  // any database, unlike the row id, which two databases a process opens (the test suite's, or a
  // draft replaced in design) can give to different documents.
  await sql`alter table study_definitions add column uid uuid not null default gen_random_uuid()`.execute(db);
}
