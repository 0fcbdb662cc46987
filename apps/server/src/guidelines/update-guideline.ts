import type { GuidelineDetail, GuidelineUpdate } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { claimAttachments } from '../attachments/claim-attachments.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { findGuidelineForWrite } from './find-guideline-for-write.ts';
import { getGuideline } from './get-guideline.ts';
import { requireGuidelineWriter } from './guideline-access.ts';
import { checkAlarmPeriod, cleanGuidelineContent, guidelineAuditView } from './guideline-content.ts';

/**
 * Edits a draft; only the fields sent change. A published or retired guideline is not edited in
 * place (409 guideline_not_draft): a new version is drafted from it instead, so what readers were
 * shown stays as it was in the audit trail and on screen until the new version is published.
 */
export async function updateGuideline(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  guidelineId: number,
  input: GuidelineUpdate,
): Promise<GuidelineDetail> {
  requireGuidelineWriter(principal, studyId);
  const content = input.contentHtml === undefined ? undefined : cleanGuidelineContent(input.contentHtml);
  await inTransaction(db, async (trx) => {
    const before = await findGuidelineForWrite(trx, studyId, guidelineId);
    if (before.state !== 'draft') throw new AppError(409, 'guideline_not_draft');
    const alarmStart = input.alarmStart === undefined ? before.alarm_start : input.alarmStart;
    const alarmEnd = input.alarmEnd === undefined ? before.alarm_end : input.alarmEnd;
    checkAlarmPeriod(alarmStart, alarmEnd);
    const beforeAttachments = await trx
      .selectFrom('attachments')
      .select('id')
      .where('owner_kind', '=', 'guideline')
      .where('owner_id', '=', guidelineId)
      .orderBy('created_at')
      .execute();
    const after = await trx
      .updateTable('guidelines')
      .set({
        ...(input.guideType === undefined ? {} : { guide_type: input.guideType }),
        ...(input.title === undefined ? {} : { title: input.title.trim() }),
        ...(content === undefined ? {} : { content_html: content }),
        ...(input.version === undefined ? {} : { version: input.version.trim() }),
        ...(input.effectiveDate === undefined ? {} : { effective_date: input.effectiveDate }),
        alarm_start: alarmStart,
        alarm_end: alarmEnd,
        updated_at: new Date(),
      })
      .where('id', '=', guidelineId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.attachmentIds !== undefined)
      await claimAttachments(
        trx,
        { kind: 'guideline', id: guidelineId, studyId },
        principal.user.id,
        input.attachmentIds,
      );
    await recordAudit(trx, actor, {
      type: 'guideline.updated',
      entityType: 'guideline',
      entityId: guidelineId,
      studyId,
      before: guidelineAuditView(
        before,
        beforeAttachments.map((row) => row.id),
      ),
      after: guidelineAuditView(after, input.attachmentIds ?? beforeAttachments.map((row) => row.id)),
    });
  });
  return getGuideline(db, principal, studyId, guidelineId);
}
