import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * The study's row lock: every writer of an amendment and of the design draft takes it first, so an
 * amendment's change, its discarding and a draft save follow one another.
 */
export async function lockStudyRow(trx: Transaction<Database>, studyId: number): Promise<void> {
  const study = await trx
    .selectFrom('studies')
    .select('id')
    .where('id', '=', studyId)
    .forUpdate()
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
}
