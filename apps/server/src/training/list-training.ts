import type { TrainingListResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { authorize } from '../auth/authorize.ts';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import {
  isRequired,
  presentModuleSummary,
  requiredForRoles,
  rolesIn,
  selectModulesFor,
  statusOf,
} from '../training-gate/training-view.ts';

/**
 * The training page's list: a member sees the published modules required for their roles; DM and
 * ADMIN (`training.manage`) see every module of the study, drafts too. Each with the reader's standing.
 */
export async function listTraining(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
): Promise<TrainingListResponse> {
  authorize(principal, 'member', { studyId });
  const canManage = can(principal, 'training.manage', { studyId });
  const roles = rolesIn(principal, studyId);
  let query = selectModulesFor(db, studyId, principal.user.id);
  if (!canManage)
    query = query.where('training_modules.state', '=', 'published').where(requiredForRoles(roles));
  const rows = await query.orderBy('training_modules.id').execute();
  const study = await db
    .selectFrom('studies')
    .select('training_gates_data_entry')
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  return {
    modules: rows.map((row) => presentModuleSummary(row, roles)),
    canManage,
    gatesDataEntry: study.training_gates_data_entry,
    pendingRequired: rows.filter((row) => isRequired(row, roles) && statusOf(row) !== 'completed').length,
  };
}
