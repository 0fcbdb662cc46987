import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Keeping `lab_results` current: a save replaces one subject's rows, a range change re-flags the
  // rows of its site and test.
  await db.schema.createIndex('lab_results_subject_idx').on('lab_results').column('subject_id').execute();
  await db.schema
    .createIndex('lab_results_site_test_idx')
    .on('lab_results')
    .columns(['site_id', 'test_key'])
    .execute();
}
