import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findModuleFor } from './read-training-module.ts';
import { renderTrainingCertificate } from './render-training-certificate.ts';

/**
 * `GET …/training/modules/:moduleId/certificate.pdf`: the reader's own certificate, only for a
 * completion of the module's current version (409 otherwise); audited before the first byte.
 */
export async function exportTrainingCertificate(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  moduleId: number,
  language: 'ko' | 'en',
): Promise<{ pdf: PDFKit.PDFDocument; fileName: string }> {
  const module = await findModuleFor(db, principal, studyId, moduleId);
  const completion = await db
    .selectFrom('training_completions')
    .select(['completed_at', 'score'])
    .where('module_id', '=', moduleId)
    .where('user_id', '=', principal.user.id)
    .where('version', '=', module.version)
    .executeTakeFirst();
  if (!completion || module.state !== 'published') throw new AppError(409, 'training_not_completed');
  const study = await db
    .selectFrom('studies')
    .select(['code', 'title'])
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  await recordAudit(db, actor, {
    type: 'training.certificate_exported',
    entityType: 'training_module',
    entityId: moduleId,
    studyId,
    after: { userId: principal.user.id, version: module.version, language },
  });
  const pdf = await renderTrainingCertificate({
    language,
    studyCode: study.code,
    studyTitle: study.title,
    userName: principal.user.name,
    moduleTitle: module.title,
    version: module.version,
    completedAt: new Date(completion.completed_at),
    score: completion.score,
  });
  return { pdf, fileName: `${study.code}_training_${moduleId}_v${module.version}.pdf` };
}
