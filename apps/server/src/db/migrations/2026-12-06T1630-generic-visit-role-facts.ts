import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 45 item 3: the read model keeps no column of one study. The visit rows held TMP-2026's
  // deviations and clinical figures as columns of their own (the failing eligibility criteria, the
  // device date, the missing pregnancy test, the healing outcome, the PTA averages); they become one
  // JSON value of whatever the study's roles yield (`VisitRoleFacts`), so a study with other roles
  // needs no migration. The values are recomputed, not copied: READ_MODEL_VERSION 9 rebuilds every
  // visit row at the next start.
  await sql`alter table subject_visits
    drop column eligible_failing_criteria,
    drop column device_applied_on,
    drop column pregnancy_test_missing,
    drop column healing_outcome,
    drop column pta_air_average,
    drop column pta_bone_average,
    add column role_facts jsonb not null default '{}'`.execute(db);

  // The same issue replaced the role `hearing` (two named averages) by `keyMeasures` (a list of items)
  // and added `eventsOfInterest`. Definitions stored since the roles arrived (this morning's) say
  // `hearing`: they are rewritten to the list so their summaries keep their measures. The form of
  // events of interest was counted by name before roles existed; a stored definition with that form
  // keeps the counts through the new role. Both are the same facts under a new name, so the design's
  // content changes but not its meaning; the audit trail keeps the hash it was uploaded with.
  await sql`
    update study_definitions set definition = jsonb_set(
      definition #- '{roles,hearing}',
      '{roles,keyMeasures}',
      jsonb_build_object(
        'form', definition #> '{roles,hearing,form}',
        'items', jsonb_build_array(definition #> '{roles,hearing,airAverage}', definition #> '{roles,hearing,boneAverage}')))
    where definition #> '{roles,hearing}' is not null`.execute(db);
  await sql`
    update study_definitions set definition = jsonb_set(definition, '{roles,eventsOfInterest}',
      '{"form": "interestAdverseEvent", "items": ["pain", "otorrhea", "reperforation"]}'::jsonb)
    where definition ? 'roles'
      and definition #> '{roles,eventsOfInterest}' is null
      and exists (select 1 from jsonb_array_elements(definition -> 'forms') form
                  where form ->> 'key' = 'interestAdverseEvent')`.execute(db);
  await sql`
    update studies set design_roles = coalesce((
      select array(select role from jsonb_object_keys(coalesce(latest.definition -> 'roles', '{}'::jsonb)) as role order by role)
      from (select definition from study_definitions
            where study_definitions.study_id = studies.id order by id desc limit 1) latest
    ), '{}')`.execute(db);
}
