import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadSiteLabRanges } from '../lab-range-rules/applicable-lab-ranges.ts';
import { flagOf } from '../read-model/lab-result-rows.ts';
import { lockSubjectsInIdOrder } from '../subjects/lock-subjects-in-id-order.ts';

/**
 * After a range was added, changed or retired (issue 43 item 13): the stored lab results of the
 * site and test it concerns — before and after a change that moved it — get the range in force on
 * their specimen date and their flag again, in the range's transaction. Only rows whose range or
 * flag moved are written.
 *
 * The site's subjects are locked first (in id order, like every writer of many subjects): a save of
 * one of them that read the ranges before this change commits first and its rows are re-flagged
 * here; a save after it waits and reads the new ranges.
 */
export async function reflagLabResults(
  trx: Transaction<Database>,
  concerned: ReadonlyArray<{ siteId: number; testKey: string }>,
): Promise<void> {
  const siteIds = [...new Set(concerned.map((pair) => pair.siteId))];
  const subjects = await trx.selectFrom('subjects').select('id').where('site_id', 'in', siteIds).execute();
  await lockSubjectsInIdOrder(trx, { ids: subjects.map((subject) => subject.id) });
  const changed: Array<{
    form_instance_id: number;
    test_key: string;
    unit: string | null;
    low: number | null;
    high: number | null;
    flag: 'H' | 'L' | 'N' | null;
  }> = [];
  for (const siteId of siteIds) {
    const testKeys = [
      ...new Set(concerned.filter((pair) => pair.siteId === siteId).map((pair) => pair.testKey)),
    ];
    const siteRanges = await loadSiteLabRanges(trx, siteId);
    const rows = await trx
      .selectFrom('lab_results')
      .select([
        'form_instance_id',
        'test_key',
        'specimen_date',
        'value',
        'sex',
        'age',
        'unit',
        'low',
        'high',
        'flag',
      ])
      .where('site_id', '=', siteId)
      .where('test_key', 'in', testKeys)
      .execute();
    for (const row of rows) {
      const now = flagOf(siteRanges, row, row.test_key, row.specimen_date, row.value);
      if (now.unit !== row.unit || now.low !== row.low || now.high !== row.high || now.flag !== row.flag)
        changed.push({ form_instance_id: row.form_instance_id, test_key: row.test_key, ...now });
    }
  }
  if (changed.length === 0) return;
  await sql`
    update lab_results lr
    set unit = r.unit, low = r.low, high = r.high, flag = r.flag
    from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as r(
      form_instance_id integer, test_key text, unit text, low double precision, high double precision, flag text)
    where lr.form_instance_id = r.form_instance_id and lr.test_key = r.test_key`.execute(trx);
}
