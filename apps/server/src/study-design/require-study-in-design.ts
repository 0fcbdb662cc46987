import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Refuses (409 `study_not_in_design`) unless the study is in design: once live, a study's design
 * changes only by an amendment. `forUpdate` holds the row, so a go-live cannot slip in between.
 */
export async function requireStudyInDesign(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  options: { forUpdate?: boolean } = {},
): Promise<{ id: number; code: string; status: string; designApprovalRequired: boolean }> {
  let query = db
    .selectFrom('studies')
    .select(['id', 'code', 'status', 'design_approval_required'])
    .where('id', '=', studyId);
  if (options.forUpdate) query = query.forUpdate();
  const study = await query.executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  if (study.status !== 'design') throw new AppError(409, 'study_not_in_design');
  return {
    id: study.id,
    code: study.code,
    status: study.status,
    designApprovalRequired: study.design_approval_required,
  };
}
