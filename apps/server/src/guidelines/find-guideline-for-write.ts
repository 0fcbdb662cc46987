import type { Transaction } from 'kysely';
import type { Database, GuidelineRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/** The study's guideline, locked for a state change in this transaction; 404 when absent. */
export async function findGuidelineForWrite(
  trx: Transaction<Database>,
  studyId: number,
  guidelineId: number,
): Promise<GuidelineRow> {
  const row = await trx
    .selectFrom('guidelines')
    .selectAll()
    .where('id', '=', guidelineId)
    .where('study_id', '=', studyId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
  return row;
}
