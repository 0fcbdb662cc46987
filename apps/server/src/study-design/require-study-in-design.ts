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

/**
 * Refuses (409 `study_not_in_design`) unless the study's design may be edited: in design, or live with
 * an amendment drafted (issue 49: the design draft then holds the amendment's next version). Holds the
 * study's row, as every writer of the draft does.
 */
export async function requireStudyDraftable(trx: Transaction<Database>, studyId: number): Promise<void> {
  const study = await trx
    .selectFrom('studies')
    .select(['status'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('study_amendments')
            .select('id')
            .where('study_amendments.study_id', '=', studyId)
            .where('study_amendments.status', '=', 'draft'),
        )
        .as('amending'),
    )
    .where('id', '=', studyId)
    .forUpdate()
    .executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  if (study.status === 'design') return;
  if (study.status === 'active' && study.amending) return;
  throw new AppError(409, 'study_not_in_design');
}
