import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { reportRowCounts } from '../reports/read-report-rows.ts';
import type { ReportContext } from '../reports/report-context.ts';

export interface HealingCount {
  visitKey: string;
  outcome: string;
  /** Null: every subject; otherwise the randomized subjects of that group. */
  group: string | null;
  count: number;
}

/**
 * The healing evaluation's answers per visit (saved forms of subjects in scope), from the totals of
 * the read model's `healingOutcomes` rows (`read-model/summary-rows.ts`: group `visit`, and
 * `visit/group` for a randomized subject). With `byGroup` the counts per randomization group follow;
 * without it those rows are left out.
 */
export async function countHealingOutcomes(
  db: Kysely<Database>,
  context: ReportContext,
  visitKeys: string[],
  byGroup: boolean,
): Promise<HealingCount[]> {
  if (visitKeys.length === 0) return [];
  const counts = await reportRowCounts(db, context, { report: 'healingOutcomes' }, { perSite: false });
  const lines = new Map<string, HealingCount>();
  for (const count of counts) {
    const [visitKey = '', group = null] = count.group_key.split('/');
    if (!visitKeys.includes(visitKey) || (group !== null && !byGroup)) continue;
    const key = `${count.group_key}|${count.bucket}`;
    const line = lines.get(key) ?? { visitKey, outcome: count.bucket, group, count: 0 };
    line.count += count.rows;
    lines.set(key, line);
  }
  return [...lines.values()];
}
