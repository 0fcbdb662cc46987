import type { TrainingResult } from '@cdms/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findModuleFor } from './read-training-module.ts';

/**
 * Records the user's completion of the module at `version` (once per version: a second one keeps the
 * first time), audited in the same transaction. Returns the completion time.
 */
export async function recordCompletion(
  trx: Transaction<Database>,
  actor: AuditActor,
  input: { studyId: number; moduleId: number; userId: number; version: number; score: number | null },
): Promise<Date> {
  const existing = await trx
    .selectFrom('training_completions')
    .select('completed_at')
    .where('module_id', '=', input.moduleId)
    .where('user_id', '=', input.userId)
    .where('version', '=', input.version)
    .executeTakeFirst();
  if (existing) return existing.completed_at;
  const created = await trx
    .insertInto('training_completions')
    .values({ module_id: input.moduleId, user_id: input.userId, version: input.version, score: input.score })
    .returning('completed_at')
    .executeTakeFirstOrThrow();
  await recordAudit(trx, actor, {
    type: 'training.completed',
    entityType: 'training_module',
    entityId: input.moduleId,
    studyId: input.studyId,
    after: { userId: input.userId, version: input.version, score: input.score },
  });
  return created.completed_at;
}

/**
 * "Read and completed" of a module without a quiz (one with a quiz is completed by passing it: 409).
 * Only a published module required for the reader (managers: any published one) can be completed.
 */
export async function completeTraining(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  moduleId: number,
): Promise<TrainingResult> {
  const module = await findModuleFor(db, principal, studyId, moduleId);
  if (module.state !== 'published') throw new AppError(409, 'training_not_published');
  if (module.quiz) throw new AppError(409, 'training_quiz_required');
  const completedAt = await inTransaction(db, (trx) =>
    recordCompletion(trx, actor, {
      studyId,
      moduleId,
      userId: principal.user.id,
      version: module.version,
      score: null,
    }),
  );
  return {
    passed: true,
    score: null,
    passMark: null,
    results: null,
    version: module.version,
    completedAt: new Date(completedAt).toISOString(),
  };
}
