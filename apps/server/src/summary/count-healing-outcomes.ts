import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportContext } from '../reports/report-context.ts';
import { factsInScope } from './summary-sources.ts';

interface OutcomeRow {
  visit_key: string;
  outcome: string;
  /** Null on the totals' rows, and for subjects not randomized. */
  grp: string | null;
  /** 1 on the totals' rows (GROUPING: the group column rolled up). */
  total_row: number | string;
  count: number | string;
}

export interface HealingCount {
  visitKey: string;
  outcome: string;
  /** Null: every subject; otherwise the randomized subjects of that group. */
  group: string | null;
  count: number;
}

/**
 * The healing evaluation's answers per visit (saved forms of subjects in scope, from the read model's
 * visit rows), in one GROUP BY.
 * With `byGroup` the same counts per randomization group follow (grouping sets); without it the
 * allocation list is not even read.
 */
export async function countHealingOutcomes(
  db: Kysely<Database>,
  context: ReportContext,
  visitKeys: string[],
  byGroup: boolean,
): Promise<HealingCount[]> {
  if (visitKeys.length === 0) return [];
  // The read model's visit rows carry each saved outcome (`subject_visits.role_facts`, `healingOutcome`).
  const answers = sql`from subject_facts f
    join subject_visits sv on sv.subject_id = f.subject_id and sv.visit_key in (${sql.join(visitKeys)})
      and sv.role_facts ? 'healingOutcome'`;
  const rows = byGroup
    ? await sql<OutcomeRow>`select sv.visit_key, sv.role_facts ->> 'healingOutcome' as outcome, rs.treatment_group as grp,
          grouping(rs.treatment_group) as total_row, count(*) as count
        ${answers}
        left join randomization_slots rs on rs.subject_id = f.subject_id
        where ${factsInScope(context)}
        group by grouping sets ((sv.visit_key, sv.role_facts ->> 'healingOutcome'),
          (sv.visit_key, sv.role_facts ->> 'healingOutcome', rs.treatment_group))`.execute(db)
    : await sql<OutcomeRow>`select sv.visit_key, sv.role_facts ->> 'healingOutcome' as outcome, null as grp, 1 as total_row,
          count(*) as count
        ${answers}
        where ${factsInScope(context)}
        group by sv.visit_key, sv.role_facts ->> 'healingOutcome'`.execute(db);
  return rows.rows
    .filter((row) => Number(row.total_row) === 1 || row.grp !== null)
    .map((row) => ({
      visitKey: row.visit_key,
      outcome: row.outcome,
      group: Number(row.total_row) === 1 ? null : row.grp,
      count: Number(row.count),
    }));
}
