import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Takes the row locks of many subjects at once, until the transaction ends: writers of those
 * subjects (saves, registrations, bulk actions) wait meanwhile.
 *
 * Always in id order: two transactions that each lock many subjects then take them in the same
 * order, so neither can hold one subject the other waits for while waiting for one the other holds
 * (a deadlock). Every writer that locks more than one subject goes through here.
 */
export async function lockSubjectsInIdOrder(
  trx: Transaction<Database>,
  subjects: { ids: readonly number[] } | { siteId: number },
): Promise<void> {
  let query = trx.selectFrom('subjects').select('id');
  if ('ids' in subjects) {
    if (subjects.ids.length === 0) return;
    query = query.where('id', 'in', [...subjects.ids]);
  } else {
    query = query.where('site_id', '=', subjects.siteId);
  }
  await query.orderBy('id').forUpdate().execute();
}
