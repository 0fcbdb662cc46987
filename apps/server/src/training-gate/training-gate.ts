import { type Action, type Role, trainingPagePath } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { requiredForRoles, rolesIn } from './training-view.ts';

/**
 * The writes to subject data the site staff make (product.md: PI, SI, CRC): with the study's
 * `training_gates_data_entry` on, each waits until the writer completed every published module
 * required for their roles at its current version. Monitoring and data management actions are not
 * data entry and are never held back.
 */
export const trainingGatedActions: readonly Action[] = [
  'subject.write',
  'subject.delete',
  'subject.randomize',
  'casebook.sign',
  'query.answer',
  // Issue 51: the site's SAE report and the investigator's submission are data entry too.
  'sae.report',
  'sae.submit',
];

/** The 403 of `refuseUntrainedWriter`, as a gated write's route lists it (`http/refusals.ts`). */
export const TRAINING_REFUSAL =
  'Required training is not completed yet (`training_required`; `details.trainingPath`: where to complete it).';

/**
 * The one check of the training gate, called by the authorization of every site data write
 * (`findSubjectInScope` for a subject's writes, `createSubject`, the query actions of site staff):
 * 403 `training_required` with the training page's path when the gate is on and a required module is
 * not completed at its current version. Costs one query only when the gate is on (the setting itself
 * comes with the principal).
 */
export async function refuseUntrainedWriter(
  db: Kysely<Database> | Transaction<Database>,
  principal: Principal,
  studyId: number,
  action: Action,
): Promise<void> {
  if (!trainingGatedActions.includes(action)) return;
  // The setting came with the principal (auth/principal.ts) for the studies the user belongs to.
  const gated =
    principal.studies.get(studyId)?.trainingGatesDataEntry ??
    (
      await db
        .selectFrom('studies')
        .select('training_gates_data_entry')
        .where('id', '=', studyId)
        .executeTakeFirst()
    )?.training_gates_data_entry;
  if (!gated) return;
  const pending = await countPendingRequired(db, studyId, principal.user.id, rolesIn(principal, studyId));
  if (pending > 0)
    throw new AppError(403, 'training_required', {}, { trainingPath: trainingPagePath(studyId), pending });
}

/** Published modules required for these roles that the user has not completed at their current version. */
export async function countPendingRequired(
  db: Kysely<Database> | Transaction<Database>,
  studyId: number,
  userId: number,
  roles: readonly Role[],
): Promise<number> {
  const row = await db
    .selectFrom('training_modules')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('training_modules.study_id', '=', studyId)
    .where('training_modules.state', '=', 'published')
    .where(requiredForRoles(roles))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('training_completions')
            .select('training_completions.id')
            .whereRef('training_completions.module_id', '=', 'training_modules.id')
            .whereRef('training_completions.version', '=', 'training_modules.version')
            .where('training_completions.user_id', '=', userId),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
