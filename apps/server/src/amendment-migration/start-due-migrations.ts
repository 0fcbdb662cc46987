import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Each published amendment's sites whose ethics approval is in effect by `today` get their automatic
 * job (issue 49 item 4: subjects move on the day the amendment takes effect at their site), once: the
 * unique index on automatic jobs lets the first process that sees the date start it. Its `total` is
 * what the site has on the amendment's `from` version then.
 */
export async function startDueMigrations(db: Kysely<Database>, today: string): Promise<void> {
  await sql`
    insert into amendment_migrations (amendment_id, study_id, scope, site_id, total)
    select a.id, a.study_id, 'site', s.site_id,
      (select count(*) from subjects
        where subjects.study_id = a.study_id and subjects.site_id = s.site_id
          and subjects.definition_version = a.from_version and subjects.deleted_at is null)::int
    from study_amendments a
    join study_amendment_sites s on s.amendment_id = a.id
    where a.status = 'published' and s.effective_on is not null and s.effective_on <= ${today}::date
      and not exists (
        select 1 from amendment_migrations m
        where m.amendment_id = a.id and m.scope = 'site' and m.site_id = s.site_id and m.requested_by is null
      )
    on conflict do nothing`.execute(db);
}
