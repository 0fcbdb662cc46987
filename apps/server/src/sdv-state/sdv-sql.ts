import { type RawBuilder, sql } from 'kysely';
import type { SiteScope } from '../auth/permissions.ts';
import { inSiteScope } from '../auth/site-scope-sql.ts';
import type { SdvKeySets, SdvPlanRule } from './sdv-rules.ts';

/**
 * The SQL every SDV read-out starts from (progress, the readiness board, subject-info, the overview's
 * marks), as common table expressions, so that all of them count against the plan the same way:
 *
 * - `ranked_subjects`: the study's subjects (not deleted) with their place at their site by
 *   registration order (`site_rank`, from 1), which the plan's "first N subjects" reads;
 * - `entered_items`: every verifiable entered item of every saved form (sdv-rules.ts: not derived,
 *   not filled by the system) with `in_plan` and its mark's state (null, 'verified', 'changed');
 * - `form_sdv`: per saved form, `planned`, `verified` and `changed` items in the plan.
 *
 * sdv-rules.ts `itemInPlan` says the same for one item; the tests hold the two together.
 */
export interface SdvSqlInput {
  studyId: number;
  plan: SdvPlanRule;
  keys: SdvKeySets;
  /** The sites counted. */
  sites: SiteScope;
  /** Only this subject (the subject's own read-outs). */
  subjectId?: number;
  /** Only these subjects (the read model's refresh and rebuild). */
  subjectIds?: readonly number[];
}

function keyIn(keys: readonly string[]): RawBuilder<boolean> {
  if (keys.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(fi.form_key || '.' || iv.item_key) in (${sql.join(keys)})`;
}

/**
 * The place at its site by registration order of the subject row named `alias` (1 = first; deleted
 * subjects left out), counted on subjects_site_registration_idx: the plan's "first N subjects".
 */
export function siteRankSql(alias: string): RawBuilder<number> {
  const s = sql.table(alias);
  return sql<number>`(select count(*) from subjects o
    where o.site_id = ${s}.site_id and o.deleted_at is null
      and (o.created_at, o.id) <= (${s}.created_at, ${s}.id))`;
}

export function sdvCtes(input: SdvSqlInput): RawBuilder<unknown> {
  const { plan, keys } = input;
  const subjectIds = input.subjectId === undefined ? input.subjectIds : [input.subjectId];
  const subjectFilter =
    subjectIds === undefined
      ? sql<boolean>`true`
      : subjectIds.length === 0
        ? sql<boolean>`false`
        : sql<boolean>`r.subject_id in (${sql.join([...subjectIds])})`;
  // The place at the site by registration order: ranked over the study, or, for a few subjects,
  // counted per subject on subjects_site_registration_idx (the same order, without the whole study).
  const rankedSubjects =
    subjectIds === undefined
      ? sql`select s.id as subject_id, s.site_id,
          row_number() over (partition by s.site_id order by s.created_at, s.id) as site_rank
        from subjects s
        where s.study_id = ${input.studyId} and s.deleted_at is null`
      : sql`select s.id as subject_id, s.site_id, ${siteRankSql('s')} as site_rank
        from subjects s
        where s.study_id = ${input.studyId} and s.deleted_at is null
          and ${subjectIds.length === 0 ? sql`false` : sql`s.id in (${sql.join([...subjectIds])})`}`;
  return sql`
    ranked_subjects as (${rankedSubjects}),
    entered_items as (
      select r.subject_id, r.site_id, fi.visit_key, fi.form_key, iv.item_key, m.state,
        (${plan.mode === 'all'} or r.site_rank <= ${plan.firstSubjectsPerSite} or ${keyIn(keys.critical)}) as in_plan
      from ranked_subjects r
      join form_instances fi on fi.subject_id = r.subject_id and fi.has_data
      join item_values iv on iv.form_instance_id = fi.id and not iv.derived
      left join sdv_marks m on m.form_instance_id = fi.id and m.item_key = iv.item_key
      where ${inSiteScope('r.site_id', input.sites)} and ${subjectFilter} and ${keyIn(keys.verifiable)}
    ),
    form_sdv as (
      select subject_id, site_id, visit_key, form_key,
        count(*) filter (where in_plan)::int as planned,
        count(*) filter (where in_plan and state = 'verified')::int as verified,
        count(*) filter (where in_plan and state = 'changed')::int as changed
      from entered_items
      group by subject_id, site_id, visit_key, form_key
    )`;
}

/** Counts of a group of forms as the contract's SdvCounts, from summed columns. */
export interface SdvCountColumns {
  planned_items: number;
  verified_items: number;
  changed_items: number;
  planned_forms: number;
  complete_forms: number;
}

/** The aggregate columns over `form_sdv` rows (for a GROUP BY of the caller's). */
export const sdvCountAggregates = sql`
  coalesce(sum(f.planned), 0)::int as planned_items,
  coalesce(sum(f.verified), 0)::int as verified_items,
  coalesce(sum(f.changed), 0)::int as changed_items,
  count(*) filter (where f.planned > 0)::int as planned_forms,
  count(*) filter (where f.planned > 0 and f.verified = f.planned)::int as complete_forms`;

export function presentCounts(row: SdvCountColumns) {
  return {
    plannedItems: row.planned_items,
    verifiedItems: row.verified_items,
    changedItems: row.changed_items,
    plannedForms: row.planned_forms,
    completeForms: row.complete_forms,
    percent: row.planned_items === 0 ? null : Math.floor((row.verified_items * 100) / row.planned_items),
  };
}
