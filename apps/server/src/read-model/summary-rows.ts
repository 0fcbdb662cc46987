import type { StudyDefinition } from '@cdms/study';
import { type RawBuilder, sql } from 'kysely';
import { measureChangeOf } from '../studies/definition-items.ts';
import { fromChosenFacts, rowColumns } from './report-row-columns.ts';

/**
 * The study summary's rows (issue 46), counted, never listed — part of `report-rows.ts`' rows of the
 * subjects in `chosen`, kept with them. Counted from `report_row_totals`, the summary's figures do
 * not grow with the trial (× 6.0 from 500 to 5,000 subjects, read per request):
 *
 * - `visitCompletion`: each visit window of the subject (group: the visit) in its window, out of it,
 *   or not done while the subject is in follow-up (`pending`; `overdue` counts too from the day after
 *   the window closes — not yet due is pending less overdue);
 * - `healingOutcomes`: each saved outcome of the `healing` role (group: the visit; bucket: the code);
 * - `keyMeasures`: each saved value of the `keyMeasures` role (group: `visit/measure`; bucket: the
 *   value, so the counts are each value's frequency: n, mean and median follow);
 * - `keyMeasureChanges`: for a subject measured at the first and the last visit collecting measures,
 *   both values (group: the measure; bucket: `from` or `to`; the value summed in the totals, so the
 *   means need no row per value).
 *
 * A randomized subject's rows come twice, the second with its group after a slash (`v3/treatment`):
 * the split by arm that data management reads (`summary.by_group`).
 */
export function summaryRows(definition: StudyDefinition): RawBuilder<unknown>[] {
  const { healing, keyMeasures } = definition.roles ?? {};
  const parts = [visitCompletionRows()];
  if (healing) parts.push(healingRows());
  if (keyMeasures) {
    parts.push(keyMeasureRows());
    const change = measureChangeOf(definition, keyMeasures);
    if (change) parts.push(keyMeasureChangeRows(change));
  }
  return parts;
}

/** The subject's group suffixes: '' for the totals, and `/group` once it is randomized. */
const groups = sql`(select '' as suffix
  union all select '/' || rs.treatment_group from randomization_slots rs
  where rs.subject_id = c.subject_id and rs.treatment_group is not null)`;

function visitCompletionRows(): RawBuilder<unknown> {
  return sql`select ${rowColumns({
    report: 'visitCompletion',
    rowKey: sql`w.visit_key || '/' || state.bucket`,
    groupKey: sql`w.visit_key`,
    bucket: sql`state.bucket`,
    countsFrom: sql`state.counts_from`,
  })}
    ${fromChosenFacts}
    join subject_visit_windows w on w.subject_id = c.subject_id
    cross join lateral (
      select 'inWindow' as bucket, null::date as counts_from
        where w.actual_date between w.earliest_date and w.latest_date
      union all select 'outOfWindow', null
        where w.actual_date < w.earliest_date or w.actual_date > w.latest_date
      union all select 'pending', null where w.actual_date is null and w.subject_status = 'ongoing'
      union all select 'overdue', w.latest_date + 1 where w.actual_date is null and w.subject_status = 'ongoing'
    ) state`;
}

function healingRows(): RawBuilder<unknown> {
  const group = sql`v.visit_key || g.suffix`;
  return sql`select ${rowColumns({
    report: 'healingOutcomes',
    rowKey: group,
    groupKey: group,
    bucket: sql`v.role_facts ->> 'healingOutcome'`,
  })}
    ${fromChosenFacts}
    join subject_visits v on v.subject_id = c.subject_id and v.role_facts ? 'healingOutcome'
    cross join lateral ${groups} g`;
}

function keyMeasureRows(): RawBuilder<unknown> {
  const group = sql`v.visit_key || '/' || m.key || g.suffix`;
  return sql`select ${rowColumns({ report: 'keyMeasures', rowKey: group, groupKey: group, bucket: sql`m.value` })}
    ${fromChosenFacts}
    join subject_visits v on v.subject_id = c.subject_id and v.role_facts ? 'measures'
    cross join lateral jsonb_each_text(v.role_facts -> 'measures') as m(key, value)
    cross join lateral ${groups} g`;
}

function keyMeasureChangeRows(change: { fromVisit: string; toVisit: string }): RawBuilder<unknown> {
  const group = sql`p.measure || g.suffix`;
  return sql`select ${rowColumns({
    report: 'keyMeasureChanges',
    rowKey: sql`side.name || '/' || ${group}`,
    groupKey: group,
    bucket: sql`side.name`,
    value: sql`side.value`,
  })}
    ${fromChosenFacts}
    join subject_visits vf on vf.subject_id = c.subject_id and vf.visit_key = ${change.fromVisit}
    join subject_visits vt on vt.subject_id = c.subject_id and vt.visit_key = ${change.toVisit}
    cross join lateral (
      select m.key as measure, m.value as value_from, vt.role_facts -> 'measures' ->> m.key as value_to
      from jsonb_each_text(vf.role_facts -> 'measures') as m(key, value)
    ) p
    cross join lateral (select 'from' as name, p.value_from as value union all select 'to', p.value_to) side
    cross join lateral ${groups} g
    where p.value_to is not null`;
}
