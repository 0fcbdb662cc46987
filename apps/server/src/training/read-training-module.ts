import type { Attachment, TrainingModuleDetail } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { listOwnedAttachments } from '../attachments/list-owned-attachments.ts';
import { authorize } from '../auth/authorize.ts';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import {
  type ModuleWithCompletion,
  presentModuleSummary,
  requiredForRoles,
  rolesIn,
  selectModulesFor,
} from '../training-gate/training-view.ts';

/**
 * A module as the reader may see it: members read the published modules required for their roles
 * (anything else is 404); managers read every module and get the quiz with its answers to edit.
 * A taker never receives the right answers here.
 */
export async function findModuleFor(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  moduleId: number,
): Promise<ModuleWithCompletion> {
  authorize(principal, 'member', { studyId });
  let query = selectModulesFor(db, studyId, principal.user.id).where('training_modules.id', '=', moduleId);
  if (!can(principal, 'training.manage', { studyId }))
    query = query
      .where('training_modules.state', '=', 'published')
      .where(requiredForRoles(rolesIn(principal, studyId)));
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

export function presentModuleDetail(
  row: ModuleWithCompletion,
  principal: Principal,
  studyId: number,
  attachments: Attachment[],
): TrainingModuleDetail {
  const canManage = can(principal, 'training.manage', { studyId });
  return {
    ...presentModuleSummary(row, rolesIn(principal, studyId)),
    contentHtml: row.content_html,
    quiz: row.quiz
      ? {
          questions: row.quiz.questions.map((question) => ({
            text: question.text,
            options: question.options,
          })),
          passMark: row.quiz.passMark,
        }
      : null,
    editableQuiz: canManage ? row.quiz : null,
    attachments,
    canManage,
  };
}

export async function readTrainingModule(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  moduleId: number,
): Promise<TrainingModuleDetail> {
  const row = await findModuleFor(db, principal, studyId, moduleId);
  return presentModuleDetail(
    row,
    principal,
    studyId,
    await listOwnedAttachments(db, { kind: 'training_module', id: moduleId }),
  );
}
