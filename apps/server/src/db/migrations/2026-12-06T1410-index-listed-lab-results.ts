import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The lab page lists only results out of range or judged clinically significant: a partial index
  // of those rows in the listing's order, so a page and its count read the listed rows alone.
  await db.schema
    .createIndex('lab_results_listed_idx')
    .on('lab_results')
    .columns(['study_id', 'site_code', 'screening_number', 'visit_key', 'test_order'])
    .where(sql<boolean>`flag in ('H', 'L') or significance = 'CS'`)
    .execute();
}
