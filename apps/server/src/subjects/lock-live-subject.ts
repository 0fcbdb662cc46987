import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Takes one subject's row lock until the transaction ends (writers of the subject queue on it), and
 * answers 404 when the subject was deleted while this request waited for the lock: it is gone for
 * everyone. Many subjects at once go through `lock-subjects-in-id-order.ts` instead.
 */
export async function lockLiveSubject(trx: Transaction<Database>, subjectId: number): Promise<void> {
  const row = await trx
    .selectFrom('subjects')
    .select('deleted_at')
    .where('id', '=', subjectId)
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) throw new AppError(404, 'not_found');
}
