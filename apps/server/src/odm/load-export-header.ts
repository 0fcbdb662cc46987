import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { studyDefinitionVersions } from '../studies/study-definitions.ts';
import { type ExportScope, subjectsInScope } from './load-export-batch.ts';

/**
 * What an ODM document states before its clinical data: the study and its current definition, the
 * sites in scope (Locations) and the people who appear in the exported data (Users) — so the
 * AdminData can be written first, as ODM orders it, while the subjects are still to be streamed.
 * The users are found with a few DISTINCT queries over the scope, not by reading the data.
 */

export interface ExportHeader {
  study: { id: number; code: string; title: string };
  /** The definition in force: the newest version. */
  definition: StudyDefinition;
  definitionVersion: string;
  /** Every version of the definition, oldest first, the one in force last (1.3.2 writes them all). */
  definitionVersions: StudyDefinition[];
  /** The day the definition version took effect (YYYY-MM-DD, UTC). */
  definitionDate: string;
  sites: { id: number; code: string; name: string }[];
  users: { id: number; name: string }[];
  /** The distinct meanings of the signatures in force, as stored ({ ko, en }). */
  signatureMeanings: unknown[];
}

export async function loadExportHeader(
  db: Kysely<Database>,
  scope: ExportScope,
  options: { audit: boolean; queries: boolean },
): Promise<ExportHeader> {
  const study = await db
    .selectFrom('studies')
    .select(['id', 'code', 'title'])
    .where('id', '=', scope.studyId)
    .executeTakeFirst();
  if (!study) throw new Error(`There is no study with id ${scope.studyId}.`);
  const versions = await studyDefinitionVersions(db, scope.studyId);
  const definitionRow = versions.at(-1);
  if (!definitionRow) throw new Error(`The study ${study.code} has no definition.`);

  let sitesQuery = db
    .selectFrom('sites')
    .select(['id', 'code', 'name'])
    .where('study_id', '=', scope.studyId)
    .orderBy('id');
  if (scope.siteIds !== undefined)
    sitesQuery = sitesQuery.where('id', 'in', scope.siteIds.length > 0 ? scope.siteIds : [0]);
  const sites = await sitesQuery.execute();

  // The subjects in scope, as a sub-select each user query filters on.
  const subjectIds = () => subjectsInScope(db, scope).select('id');
  const userIds = new Set<number>();
  const add = (rows: { user_id: number | null }[]) => {
    for (const row of rows) if (row.user_id !== null) userIds.add(row.user_id);
  };
  add(
    await db
      .selectFrom('item_values')
      .innerJoin('form_instances', 'form_instances.id', 'item_values.form_instance_id')
      .select('item_values.updated_by as user_id')
      .distinct()
      .where('form_instances.subject_id', 'in', subjectIds())
      .execute(),
  );
  add(
    await db
      .selectFrom('signatures')
      .select('signed_by as user_id')
      .distinct()
      .where('subject_id', 'in', subjectIds())
      .where('invalidated_at', 'is', null)
      .execute(),
  );
  if (options.audit) {
    add(
      await db
        .selectFrom('audit_events')
        .select('actor_user_id as user_id')
        .distinct()
        .where('subject_id', 'in', subjectIds())
        .where('event_type', '=', 'data.item_changed')
        .execute(),
    );
  }
  if (options.queries) {
    add(
      await db
        .selectFrom('query_messages')
        .innerJoin('queries', 'queries.id', 'query_messages.query_id')
        .select('query_messages.author_user_id as user_id')
        .distinct()
        .where('queries.subject_id', 'in', subjectIds())
        .execute(),
    );
  }
  const users =
    userIds.size === 0
      ? []
      : await db
          .selectFrom('users')
          .select(['id', 'name'])
          .where('id', 'in', [...userIds])
          .orderBy('id')
          .execute();

  const meanings = await db
    .selectFrom('signatures')
    .select(sql<string>`meaning::text`.as('meaning'))
    .distinct()
    .where('subject_id', 'in', subjectIds())
    .where('invalidated_at', 'is', null)
    .execute();

  return {
    study,
    definition: definitionRow.definition,
    definitionVersion: definitionRow.version,
    definitionVersions: versions.map((version) => version.definition),
    definitionDate: definitionRow.createdAt.toISOString().slice(0, 10),
    sites,
    users,
    signatureMeanings: meanings.map((row) => JSON.parse(row.meaning) as unknown),
  };
}
