import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportContext } from '../reports/report-context.ts';
import { factsInScope } from './summary-sources.ts';

interface StatsRow {
  visit_key: string;
  measure: string;
  grp: string | null;
  total_row: number | string;
  n: number | string;
  mean: number | string | null;
  median: number | string | null;
}

interface ChangeRow {
  measure: string;
  grp: string | null;
  total_row: number | string;
  n: number | string;
  mean_from: number | string | null;
  mean_to: number | string | null;
  mean_change: number | string | null;
}

export interface MeasureStatsLine {
  visitKey: string;
  measure: string;
  group: string | null;
  n: number;
  mean: number | null;
  median: number | null;
}

export interface MeasureChangeLine {
  measure: string;
  group: string | null;
  n: number;
  meanFrom: number | null;
  meanTo: number | null;
  meanChange: number | null;
}

/** To one decimal, as the summary shows its figures. */
const oneDecimal = (value: number | string | null): number | null =>
  value === null ? null : Math.round(Number(value) * 10) / 10;

/**
 * The study's key measures (its `keyMeasures` role: number items of one form) per visit: n, mean and
 * median in one GROUP BY; and for subjects measured at both `fromVisit` and `toVisit` the means at each
 * and the mean change, in another. With `byGroup` both repeat per randomization group (grouping sets);
 * without it the allocation list is not read.
 */
export async function summarizeKeyMeasures(
  db: Kysely<Database>,
  context: ReportContext,
  visitKeys: string[],
  change: { fromVisit: string; toVisit: string } | null,
  byGroup: boolean,
): Promise<{ stats: MeasureStatsLine[]; changes: MeasureChangeLine[] }> {
  if (visitKeys.length === 0) return { stats: [], changes: [] };
  // The read model's visit rows carry each saved measure (`subject_visits.role_facts`, `measures`: item
  // key → number), one row per subject, visit and measure here.
  const measured = sql`select f.subject_id, sv.visit_key, m.key as measure, m.value::float8 as value,
      ${byGroup ? sql`rs.treatment_group` : sql`null::text`} as grp
    from subject_facts f
    join subject_visits sv on sv.subject_id = f.subject_id and sv.visit_key in (${sql.join(visitKeys)})
      and sv.role_facts ? 'measures'
    cross join lateral jsonb_each_text(sv.role_facts -> 'measures') as m(key, value)
    ${byGroup ? sql`left join randomization_slots rs on rs.subject_id = f.subject_id` : sql``}
    where ${factsInScope(context)}`;
  const sets = (keys: RawBuilder<unknown>) =>
    byGroup ? sql`grouping sets ((${keys}), (${keys}, grp))` : sql`${keys}`;
  const totalRow = byGroup ? sql`grouping(grp)` : sql`1`;

  const [stats, changes] = await Promise.all([
    sql<StatsRow>`with measured as (${measured})
      select visit_key, measure, ${byGroup ? sql`grp` : sql`null`} as grp, ${totalRow} as total_row,
        count(*) as n, avg(value) as mean,
        percentile_cont(0.5) within group (order by value) as median
      from measured group by ${sets(sql`visit_key, measure`)}`.execute(db),
    change
      ? // Each subject's value at both visits side by side (one form per subject and visit), then
        // averaged: a self-join of `measured` would be planned as a nested loop over ~15,000 rows
        // (the planner guesses one row) and took 13 s at 5,000 subjects.
        sql<ChangeRow>`with measured as (${measured}),
          paired as (
            select subject_id, measure, grp,
              max(value) filter (where visit_key = ${change.fromVisit}) as value_from,
              max(value) filter (where visit_key = ${change.toVisit}) as value_to
            from measured group by subject_id, measure, grp)
          select measure, ${byGroup ? sql`grp` : sql`null`} as grp, ${totalRow} as total_row,
            count(*) as n, avg(value_from) as mean_from, avg(value_to) as mean_to,
            avg(value_to - value_from) as mean_change
          from paired
          where value_from is not null and value_to is not null
          group by ${sets(sql`measure`)}`.execute(db)
      : Promise.resolve({ rows: [] as ChangeRow[] }),
  ]);
  const keep = (row: { total_row: number | string; grp: string | null }) =>
    Number(row.total_row) === 1 || row.grp !== null;
  return {
    stats: stats.rows.filter(keep).map((row) => ({
      visitKey: row.visit_key,
      measure: row.measure,
      group: Number(row.total_row) === 1 ? null : row.grp,
      n: Number(row.n),
      mean: oneDecimal(row.mean),
      median: oneDecimal(row.median),
    })),
    changes: changes.rows.filter(keep).map((row) => ({
      measure: row.measure,
      group: Number(row.total_row) === 1 ? null : row.grp,
      n: Number(row.n),
      meanFrom: oneDecimal(row.mean_from),
      meanTo: oneDecimal(row.mean_to),
      meanChange: oneDecimal(row.mean_change),
    })),
  };
}
