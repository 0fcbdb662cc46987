import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportContext } from '../reports/report-context.ts';
import { factsInScope, SUMMARY_SOURCES } from './summary-sources.ts';

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
 * The healing evaluation's answers per visit (saved forms of subjects in scope), in one GROUP BY.
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
  const { formKey, itemKey } = SUMMARY_SOURCES.healing;
  const answers = sql`from subject_facts f
    join form_instances fi on fi.subject_id = f.subject_id and fi.form_key = ${formKey} and fi.has_data
      and fi.visit_key in (${sql.join(visitKeys)})
    join item_values iv on iv.form_instance_id = fi.id and iv.item_key = ${itemKey}
      and jsonb_typeof(iv.value) = 'string'`;
  const rows = byGroup
    ? await sql<OutcomeRow>`select fi.visit_key, iv.value #>> '{}' as outcome, rs.treatment_group as grp,
          grouping(rs.treatment_group) as total_row, count(*) as count
        ${answers}
        left join randomization_slots rs on rs.subject_id = f.subject_id
        where ${factsInScope(context)}
        group by grouping sets ((fi.visit_key, iv.value #>> '{}'),
          (fi.visit_key, iv.value #>> '{}', rs.treatment_group))`.execute(db)
    : await sql<OutcomeRow>`select fi.visit_key, iv.value #>> '{}' as outcome, null as grp, 1 as total_row,
          count(*) as count
        ${answers}
        where ${factsInScope(context)}
        group by fi.visit_key, iv.value #>> '{}'`.execute(db);
  return rows.rows
    .filter((row) => Number(row.total_row) === 1 || row.grp !== null)
    .map((row) => ({
      visitKey: row.visit_key,
      outcome: row.outcome,
      group: Number(row.total_row) === 1 ? null : row.grp,
      count: Number(row.count),
    }));
}
