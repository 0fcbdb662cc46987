import type { TrainingQuizSubmission, TrainingResult } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { recordCompletion } from './complete-training.ts';
import { findModuleFor } from './read-training-module.ts';

/**
 * Checks a quiz submission on the server: one answer per question, each one of its options. A score
 * (percent right, rounded down) at or above the pass mark completes the module at its current version;
 * a failed attempt is audited too. Either way the answer comes back with the right options.
 */
export async function submitTrainingQuiz(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  moduleId: number,
  submission: TrainingQuizSubmission,
): Promise<TrainingResult> {
  const module = await findModuleFor(db, principal, studyId, moduleId);
  if (module.state !== 'published') throw new AppError(409, 'training_not_published');
  const quiz = module.quiz;
  if (!quiz) throw new AppError(409, 'training_no_quiz');
  const { answers } = submission;
  if (
    answers.length !== quiz.questions.length ||
    answers.some((answer, index) => answer >= (quiz.questions[index]?.options.length ?? 0))
  )
    throw new AppError(422, 'training_quiz_answers');
  const results = quiz.questions.map((question, index) => ({
    correct: answers[index] === question.answer,
    answer: question.answer,
  }));
  const score = Math.floor((results.filter((result) => result.correct).length * 100) / results.length);
  const passed = score >= quiz.passMark;
  const completedAt = await inTransaction(db, async (trx) => {
    if (passed)
      return recordCompletion(trx, actor, {
        studyId,
        moduleId,
        userId: principal.user.id,
        version: module.version,
        score,
      });
    await recordAudit(trx, actor, {
      type: 'training.quiz_failed',
      entityType: 'training_module',
      entityId: moduleId,
      studyId,
      after: { userId: principal.user.id, version: module.version, score, passMark: quiz.passMark },
    });
    return null;
  });
  return {
    passed,
    score,
    passMark: quiz.passMark,
    results,
    version: module.version,
    completedAt: completedAt ? new Date(completedAt).toISOString() : null,
  };
}
