import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The roles a study's current definition declares (issue 45 item 3: a study without a role lacks
  // that feature), kept on the study so that the signed-in user's memberships — read on every request
  // — say which features the study has without reading its definition. Written with each publication.
  await sql`alter table studies add column design_roles text[] not null default '{}'`.execute(db);
  await sql`
    update studies set design_roles = coalesce((
      select array(select role from jsonb_object_keys(coalesce(latest.definition -> 'roles', '{}'::jsonb)) as role order by role)
      from (select definition from study_definitions
            where study_definitions.study_id = studies.id order by id desc limit 1) latest
    ), '{}')`.execute(db);
}
