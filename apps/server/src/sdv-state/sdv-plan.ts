import type { SdvPlanResponse } from '@cdms/contract';
import { getFormLayout, type StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { DEFAULT_SDV_PLAN, type SdvPlanRule, verifiableItems } from './sdv-rules.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The study's plan row, as a query (or a subquery of the caller's statement: `jsonObjectFrom`). */
export function sdvPlanQuery(executor: Executor, studyId: number) {
  return executor
    .selectFrom('sdv_plans')
    .select(['sdv_plans.mode', 'sdv_plans.first_subjects_per_site'])
    .where('sdv_plans.study_id', '=', studyId);
}

/** The plan of a study's row, or the default (every item) when it has never set one. */
export function sdvPlanOf(
  row: { mode: SdvPlanRule['mode']; first_subjects_per_site: number } | null | undefined,
): SdvPlanRule {
  return row ? { mode: row.mode, firstSubjectsPerSite: row.first_subjects_per_site } : DEFAULT_SDV_PLAN;
}

/** The study's SDV plan, or the default (every item) when it has never set one. */
export async function loadSdvPlan(executor: Executor, studyId: number): Promise<SdvPlanRule> {
  return sdvPlanOf(await sdvPlanQuery(executor, studyId).executeTakeFirst());
}

/** `GET /api/studies/:studyId/sdv/plan`: the plan, the critical items it names, who set it. */
export async function readSdvPlan(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<SdvPlanResponse> {
  authorize(principal, 'subject.read', { studyId });
  const row = await db
    .selectFrom('sdv_plans')
    .innerJoin('users', 'users.id', 'sdv_plans.updated_by')
    .select(['sdv_plans.mode', 'sdv_plans.first_subjects_per_site', 'sdv_plans.updated_at', 'users.name'])
    .where('sdv_plans.study_id', '=', studyId)
    .executeTakeFirst();
  const current = await currentStudyDefinition(db, studyId);
  return {
    mode: row?.mode ?? DEFAULT_SDV_PLAN.mode,
    firstSubjectsPerSite: row?.first_subjects_per_site ?? DEFAULT_SDV_PLAN.firstSubjectsPerSite,
    criticalItems: current ? criticalItemsOf(current.definition) : [],
    updatedAt: row?.updated_at.toISOString() ?? null,
    updatedBy: row?.name ?? null,
    canEdit: can(principal, 'sdv.plan', { studyId }),
  };
}

/** The critical items of the definition, once per form and key, in definition order. */
export function criticalItemsOf(definition: StudyDefinition): SdvPlanResponse['criticalItems'] {
  const seen = new Set<string>();
  const items: SdvPlanResponse['criticalItems'] = [];
  for (const visit of definition.visits) {
    for (const formKey of visit.forms) {
      const layout = getFormLayout(definition, visit.key, formKey);
      if (!layout) continue;
      for (const item of verifiableItems(definition, visit.key, formKey)) {
        const key = `${formKey}.${item.key}`;
        if (!item.critical || seen.has(key)) continue;
        seen.add(key);
        items.push({ formKey, itemKey: item.key, formLabel: layout.form.label, itemLabel: item.label });
      }
    }
  }
  return items;
}
