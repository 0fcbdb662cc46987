import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { renderTrainingRecord } from './render-training-record.ts';

/**
 * `GET …/training/certificate.pdf` (the reader's own) and `GET …/training/members/:userId/certificate.pdf`
 * (DM and ADMIN: `training.manage`): one person's certificate listing every published module of the study
 * they completed at its current version, with the version, when (KST) and the quiz score. A user who is
 * not a member of the study does not exist here (404); none completed: 409 `training_not_completed`.
 * Audited (`training.record_exported`) before the first byte.
 */
export async function exportTrainingRecord(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  userId: number,
  language: 'ko' | 'en',
): Promise<{ pdf: PDFKit.PDFDocument; fileName: string }> {
  authorize(principal, userId === principal.user.id ? 'member' : 'training.manage', { studyId });
  const person = await db
    .selectFrom('users')
    .select(['users.id', 'users.name'])
    .where('users.id', '=', userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships')
          .select('memberships.id')
          .whereRef('memberships.user_id', '=', 'users.id')
          .where('memberships.study_id', '=', studyId),
      ),
    )
    .executeTakeFirst();
  if (!person) throw new AppError(404, 'not_found');
  const completions = await db
    .selectFrom('training_completions')
    .innerJoin('training_modules', 'training_modules.id', 'training_completions.module_id')
    .select([
      'training_modules.id',
      'training_modules.title',
      'training_modules.version',
      'training_completions.completed_at',
      'training_completions.score',
    ])
    .where('training_modules.study_id', '=', studyId)
    .where('training_modules.state', '=', 'published')
    .whereRef('training_completions.version', '=', 'training_modules.version')
    .where('training_completions.user_id', '=', userId)
    .orderBy('training_completions.completed_at')
    .orderBy('training_modules.id')
    .execute();
  if (completions.length === 0) throw new AppError(409, 'training_not_completed');
  const study = await db
    .selectFrom('studies')
    .select(['code', 'title'])
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  await recordAudit(db, actor, {
    type: 'training.record_exported',
    entityType: 'user',
    entityId: userId,
    studyId,
    after: { userId, count: completions.length, language },
  });
  const pdf = await renderTrainingRecord({
    language,
    studyCode: study.code,
    studyTitle: study.title,
    userName: person.name,
    modules: completions.map((row) => ({
      title: row.title,
      version: row.version,
      completedAt: new Date(row.completed_at),
      score: row.score,
    })),
  });
  return { pdf, fileName: `${study.code}_training_record_${userId}.pdf` };
}
