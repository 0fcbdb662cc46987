import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadSdvPlan } from './sdv-plan.ts';
import { type SdvPlanRule, sdvKeySets } from './sdv-rules.ts';
import { type SdvCountColumns, sdvCountAggregates, sdvCtes } from './sdv-sql.ts';

/** A subject's SDV against the plan: its place at its site and its counts (as the read model keeps them). */
export interface SubjectSdvCounts extends SdvCountColumns {
  site_rank: number;
}

export const NO_SDV: SubjectSdvCounts = {
  site_rank: 0,
  planned_items: 0,
  verified_items: 0,
  changed_items: 0,
  planned_forms: 0,
  complete_forms: 0,
};

/**
 * The SDV counts of some subjects, with the same SQL as every SDV read-out (sdv-sql.ts) narrowed to
 * them: what the read model stores in `subject_facts` (refreshed at each save and SDV mark, rebuilt
 * when the plan changes), so that progress by site, the readiness board and the subject-info popup
 * add up one row per subject.
 */
export async function loadSubjectSdvCounts(
  executor: Kysely<Database> | Transaction<Database>,
  studyId: number,
  definition: StudyDefinition,
  subjectIds: readonly number[],
  /** The study's plan when the caller read it already (the read model's refresh does). */
  knownPlan?: SdvPlanRule,
): Promise<Map<number, SubjectSdvCounts>> {
  if (subjectIds.length === 0) return new Map();
  const plan = knownPlan ?? (await loadSdvPlan(executor, studyId));
  const result = await sql<SubjectSdvCounts & { subject_id: number }>`
    with ${sdvCtes({ studyId, plan, keys: sdvKeySets(definition), sites: 'all', subjectIds })}
    select r.subject_id, r.site_rank::int as site_rank, ${sdvCountAggregates}
    from ranked_subjects r
    left join form_sdv f on f.subject_id = r.subject_id
    group by r.subject_id, r.site_rank`.execute(executor);
  return new Map(result.rows.map(({ subject_id, ...counts }) => [subject_id, counts]));
}
