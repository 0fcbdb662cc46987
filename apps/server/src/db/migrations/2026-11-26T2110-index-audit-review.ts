import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The audit review page (audit-review/) reads one study's records newest first, a page at a time,
  // narrowed by subject, actor, site or event type: each filter walks its own index in id order and
  // stops at the page's end instead of sorting the whole study's trail.
  await db.schema
    .createIndex('audit_events_study_id_idx')
    .on('audit_events')
    .columns(['study_id', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_events_study_subject_idx')
    .on('audit_events')
    .columns(['study_id', 'subject_id', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_events_study_actor_idx')
    .on('audit_events')
    .columns(['study_id', 'actor_user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_events_study_site_idx')
    .on('audit_events')
    .columns(['study_id', 'site_id', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_events_study_type_idx')
    .on('audit_events')
    .columns(['study_id', 'event_type', 'id'])
    .execute();
}
