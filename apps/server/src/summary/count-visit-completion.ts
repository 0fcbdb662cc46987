import type { VisitCompletionCounts } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { reportRowCounts } from '../reports/read-report-rows.ts';
import type { ReportContext } from '../reports/report-context.ts';

export const noCompletion = (): VisitCompletionCounts => ({
  inWindow: 0,
  outOfWindow: 0,
  overdue: 0,
  notYetDue: 0,
});

/**
 * The visit completion matrix: per (visit, site), the subjects' visit windows (a row once the
 * visit's window is known) by state, from the totals of the read model's `visitCompletion` rows
 * (`read-model/summary-rows.ts`). A visit not done counts only for a subject still ongoing: overdue
 * once the window has closed (today in UTC+9 after its last day), not yet due while it is open or
 * ahead. Keyed `visit|site`.
 */
export async function countVisitCompletion(
  db: Kysely<Database>,
  context: ReportContext,
): Promise<Map<string, VisitCompletionCounts>> {
  const counts = await reportRowCounts(db, context, { report: 'visitCompletion' });
  const cells = new Map<string, VisitCompletionCounts & { pending: number }>();
  for (const count of counts) {
    const key = `${count.group_key}|${count.site_id}`;
    const cell = cells.get(key) ?? { ...noCompletion(), pending: 0 };
    if (count.bucket === 'inWindow') cell.inWindow += count.rows;
    else if (count.bucket === 'outOfWindow') cell.outOfWindow += count.rows;
    else if (count.bucket === 'overdue') cell.overdue += count.rows;
    else if (count.bucket === 'pending') cell.pending += count.rows;
    cells.set(key, cell);
  }
  return new Map(
    [...cells].map(([key, { pending, ...cell }]) => [key, { ...cell, notYetDue: pending - cell.overdue }]),
  );
}
