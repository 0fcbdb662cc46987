import { type GuidelineAction, type GuidelineDetail, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { listOwnedAttachments } from '../attachments/list-owned-attachments.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { canWriteGuidelines, requireStudyMember } from './guideline-access.ts';
import { isAlarming } from './guideline-content.ts';

/** One guideline with its attachments; readers see only published ones (others: 404). */
export async function getGuideline(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  guidelineId: number,
): Promise<GuidelineDetail> {
  requireStudyMember(principal, studyId);
  const writer = canWriteGuidelines(principal, studyId);
  const row = await db
    .selectFrom('guidelines')
    .innerJoin('users', 'users.id', 'guidelines.author_user_id')
    .selectAll('guidelines')
    .select('users.name as writer')
    .where('guidelines.id', '=', guidelineId)
    .where('guidelines.study_id', '=', studyId)
    .executeTakeFirst();
  if (!row || (!writer && row.state !== 'published')) throw new AppError(404, 'not_found');
  const attachments = await listOwnedAttachments(db, { kind: 'guideline', id: guidelineId });
  // A published guideline whose next version is already being drafted gets no second draft.
  const openDraft =
    writer && row.state === 'published'
      ? await db
          .selectFrom('guidelines')
          .select('id')
          .where('supersedes_id', '=', guidelineId)
          .where('state', '=', 'draft')
          .executeTakeFirst()
      : undefined;
  const actions: GuidelineAction[] = !writer
    ? []
    : row.state === 'draft'
      ? ['edit', 'publish', 'delete']
      : row.state === 'published'
        ? [...(openDraft ? [] : (['revise'] as const)), 'retire']
        : [];
  const today = todayInKorea();
  return {
    id: row.id,
    no: row.id,
    guideType: row.guide_type,
    title: row.title,
    writer: row.writer,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    publishedAt: row.published_at?.toISOString() ?? null,
    version: row.version,
    effectiveDate: row.effective_date,
    alarmStart: row.alarm_start,
    alarmEnd: row.alarm_end,
    state: row.state,
    supersedesId: row.supersedes_id,
    attachmentCount: attachments.length,
    alarming: isAlarming(row, today),
    contentHtml: row.content_html,
    attachments,
    canEdit: writer,
    actions,
    openDraftId: openDraft?.id ?? null,
  };
}
