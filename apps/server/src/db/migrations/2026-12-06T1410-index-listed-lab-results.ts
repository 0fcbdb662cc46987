import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The lab page lists only results out of range or judged clinically significant: a partial index
  // of those rows in the listing's order, so a page reads its own rows in order and stops, and with
  // the filtered columns included the count of a filter is read from the index alone.
  await sql`
    create index lab_results_listed_idx
    on lab_results (study_id, site_code, screening_number, visit_key, test_order)
    include (site_id, test_key, flag, significance)
    where flag in ('H', 'L') or significance = 'CS'`.execute(db);
}
