import { type TaskNotice, type taskNoticeWriteSchema, todayInKorea } from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { claimAttachments } from '../attachments/claim-attachments.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { requireGuidelineWriter } from '../guidelines/guideline-access.ts';
import { AppError } from '../http/errors.ts';
import { areSitesOfStudy } from '../studies/site-of-study.ts';
import { getTaskNotice } from './list-task-notices.ts';
import { sendTaskNotice } from './send-task-notice.ts';

/**
 * Registers a task notice (CRA, DM, ADMIN). A period that has started (today or earlier, UTC+9) sends
 * it in the same transaction; a later one is sent by the scheduler on its first day.
 */
export async function createTaskNotice(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  input: z.output<typeof taskNoticeWriteSchema>,
  today = todayInKorea(),
): Promise<TaskNotice> {
  requireGuidelineWriter(principal, studyId);
  const siteIds = [...new Set(input.siteIds)].sort((a, b) => a - b);
  const roles = [...new Set(input.roles)];
  const id = await inTransaction(db, async (trx) => {
    if (!(await areSitesOfStudy(trx, studyId, siteIds))) throw new AppError(422, 'unknown_site');
    const notice = await trx
      .insertInto('task_notices')
      .values({
        study_id: studyId,
        alarm_type: input.alarmType,
        title: input.title,
        content: input.content,
        roles: JSON.stringify(roles),
        site_ids: JSON.stringify(siteIds),
        period_start: input.periodStart,
        period_end: input.periodEnd,
        email: input.email,
        sms: input.sms,
        author_user_id: principal.user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const attachmentIds = input.attachmentId ? [input.attachmentId] : [];
    await claimAttachments(
      trx,
      { kind: 'task_notice', id: notice.id, studyId },
      principal.user.id,
      attachmentIds,
    );
    await recordAudit(trx, actor, {
      type: 'task_notice.created',
      entityType: 'task_notice',
      entityId: notice.id,
      studyId,
      after: {
        alarmType: notice.alarm_type,
        title: notice.title,
        content: notice.content,
        roles,
        siteIds,
        periodStart: notice.period_start,
        periodEnd: notice.period_end,
        email: notice.email,
        sms: notice.sms,
        attachmentIds,
      },
    });
    if (notice.period_start <= today) await sendTaskNotice(trx, actor, notice);
    return notice.id;
  });
  return getTaskNotice(db, principal, studyId, id);
}
