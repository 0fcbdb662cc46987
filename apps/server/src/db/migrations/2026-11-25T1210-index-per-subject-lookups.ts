import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Per-subject reads (a subject's history, signatures, form comments) looked these tables up by
  // subject without an index: a scan of the whole trial's rows on every form screen and save.
  await db.schema
    .createIndex('audit_events_subject_idx')
    .on('audit_events')
    .columns(['subject_id', 'id'])
    .execute();
  await db.schema.createIndex('signatures_subject_idx').on('signatures').column('subject_id').execute();
  await db.schema
    .createIndex('form_comments_subject_form_idx')
    .on('form_comments')
    .columns(['subject_id', 'visit_key', 'form_key'])
    .execute();
}
