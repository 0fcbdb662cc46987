import type { TrainingModuleDetail, TrainingModuleRequest } from '@cdms/contract';
import { isBlankRichText } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { claimAttachments } from '../attachments/claim-attachments.ts';
import { listOwnedAttachments } from '../attachments/list-owned-attachments.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, TrainingModuleRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { sanitizeRichText } from '../notices/sanitize-html.ts';
import { findModuleFor, presentModuleDetail } from './read-training-module.ts';

/** What the audit trail keeps of a module: everything but the (possibly long) body, which it hashes by length. */
function audited(module: {
  title: string;
  roles: readonly string[];
  state: string;
  version: number;
  quiz: unknown;
  content_html: string;
}) {
  return {
    title: module.title,
    roles: module.roles,
    state: module.state,
    version: module.version,
    quiz: module.quiz,
    contentLength: module.content_html.length,
  };
}

const sameContent = (
  before: Pick<TrainingModuleRow, 'title' | 'content_html' | 'quiz'>,
  after: { title: string; content_html: string; quiz: TrainingModuleRequest['quiz'] },
) =>
  before.title === after.title &&
  before.content_html === after.content_html &&
  JSON.stringify(before.quiz) === JSON.stringify(after.quiz);

/**
 * Adds a module (no `moduleId`) or changes one, DM and ADMIN (`training.manage`), audited with before
 * and after. The body goes through the notices' rich-text allow-list. A change of the title, body or
 * quiz of a module that was ever published bumps its version, so earlier completions stop counting.
 */
export async function saveTrainingModule(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: { studyId: number; moduleId?: number; request: TrainingModuleRequest },
): Promise<TrainingModuleDetail> {
  const { studyId, request } = input;
  authorize(principal, 'training.manage', { studyId });
  const contentHtml = sanitizeRichText(request.contentHtml);
  if (isBlankRichText(contentHtml)) throw new AppError(422, 'content_required');
  if (request.quiz?.questions.some((question) => question.answer >= question.options.length))
    throw new AppError(422, 'training_quiz_invalid');
  const roles = [...new Set(request.roles)];
  const attachmentIds = [...new Set(request.attachmentIds)];
  const values = {
    title: request.title,
    content_html: contentHtml,
    roles,
    state: request.state,
    quiz: request.quiz,
  };
  const id = await inTransaction(db, async (trx) => {
    const now = new Date();
    if (input.moduleId === undefined) {
      const created = await trx
        .insertInto('training_modules')
        .values({
          ...values,
          quiz: values.quiz ? JSON.stringify(values.quiz) : null,
          study_id: studyId,
          published_at: request.state === 'published' ? now : null,
          created_by: principal.user.id,
          updated_by: principal.user.id,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await claimAttachments(
        trx,
        { kind: 'training_module', id: created.id, studyId },
        principal.user.id,
        attachmentIds,
      );
      await recordAudit(trx, actor, {
        type: 'training_module.created',
        entityType: 'training_module',
        entityId: created.id,
        studyId,
        before: null,
        after: { ...audited({ ...values, version: 1 }), attachmentIds },
      });
      return created.id;
    }
    const before = await trx
      .selectFrom('training_modules')
      .selectAll()
      .where('id', '=', input.moduleId)
      .where('study_id', '=', studyId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError(404, 'not_found');
    const attachedBefore = (
      await trx
        .selectFrom('attachments')
        .select('id')
        .where('owner_kind', '=', 'training_module')
        .where('owner_id', '=', before.id)
        .execute()
    )
      .map((file) => file.id)
      .sort();
    // The files are content too: a published module that changes them is a new version.
    const sameFiles = JSON.stringify(attachedBefore) === JSON.stringify([...attachmentIds].sort());
    const sameAll = sameContent(before, values) && sameFiles;
    const version = before.published_at !== null && !sameAll ? before.version + 1 : before.version;
    const unchanged =
      version === before.version &&
      sameAll &&
      before.state === values.state &&
      JSON.stringify([...before.roles].sort()) === JSON.stringify([...roles].sort());
    if (unchanged) return before.id;
    await claimAttachments(
      trx,
      { kind: 'training_module', id: before.id, studyId },
      principal.user.id,
      attachmentIds,
    );
    await updateRowAudited(
      trx,
      actor,
      {
        table: 'training_modules',
        id: before.id,
        set: {
          ...values,
          quiz: values.quiz ? JSON.stringify(values.quiz) : null,
          version,
          published_at: before.published_at ?? (values.state === 'published' ? now : null),
          updated_by: principal.user.id,
          updated_at: now,
        },
      },
      {
        type: 'training_module.updated',
        studyId,
        before: { ...audited(before), attachmentIds: attachedBefore },
        after: { ...audited({ ...values, version }), attachmentIds },
      },
    );
    return before.id;
  });
  const row = await findModuleFor(db, principal, studyId, id);
  return presentModuleDetail(
    row,
    principal,
    studyId,
    await listOwnedAttachments(db, { kind: 'training_module', id }),
  );
}
