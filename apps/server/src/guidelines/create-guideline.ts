import type { GuidelineDetail, guidelineWriteSchema } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { claimAttachments } from '../attachments/claim-attachments.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { getGuideline } from './get-guideline.ts';
import { requireGuidelineWriter } from './guideline-access.ts';
import { checkAlarmPeriod, cleanGuidelineContent, guidelineAuditView } from './guideline-content.ts';

/** Registers a guideline as a draft (readers do not see it until it is published). */
export async function createGuideline(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  input: z.output<typeof guidelineWriteSchema>,
): Promise<GuidelineDetail> {
  requireGuidelineWriter(principal, studyId);
  checkAlarmPeriod(input.alarmStart, input.alarmEnd);
  const content = cleanGuidelineContent(input.contentHtml);
  const id = await inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('guidelines')
      .values({
        study_id: studyId,
        guide_type: input.guideType,
        title: input.title,
        content_html: content,
        version: input.version,
        effective_date: input.effectiveDate,
        alarm_start: input.alarmStart,
        alarm_end: input.alarmEnd,
        supersedes_id: null,
        author_user_id: principal.user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await claimAttachments(
      trx,
      { kind: 'guideline', id: row.id, studyId },
      principal.user.id,
      input.attachmentIds,
    );
    await recordAudit(trx, actor, {
      type: 'guideline.created',
      entityType: 'guideline',
      entityId: row.id,
      studyId,
      after: guidelineAuditView(row, input.attachmentIds),
    });
    return row.id;
  });
  return getGuideline(db, principal, studyId, id);
}
