import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import type { SiteScope } from '../auth/permissions.ts';
import type { Database } from '../db/schema.ts';
import { loadSdvPlan } from './sdv-plan.ts';
import { sdvKeySets } from './sdv-rules.ts';
import { sdvCtes } from './sdv-sql.ts';

/**
 * The subject-info popup's "pages not SDV-complete": saved forms in the sites counted with an entered
 * item in the plan that is not verified (a page with nothing in the plan is not counted).
 */
export async function countPagesNotSdvComplete(
  db: Kysely<Database>,
  studyId: number,
  sites: SiteScope,
  definition: StudyDefinition | null,
): Promise<number> {
  if (!definition) return 0;
  const plan = await loadSdvPlan(db, studyId);
  const result = await sql<{ pages: number }>`
    with ${sdvCtes({ studyId, plan, keys: sdvKeySets(definition), sites })}
    select count(*)::int as pages from form_sdv where verified < planned`.execute(db);
  return result.rows[0]?.pages ?? 0;
}
