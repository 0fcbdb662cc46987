import type { Role } from '@cdms/contract';
import type { Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { updateRowAudited } from '../audit/audited-row.ts';
import type { Database, TaskNoticeRow } from '../db/schema.ts';
import { enqueueNotification } from '../notifications/enqueue-notification.ts';
import type { NotificationChannel } from '../notifications/notification-events.ts';
import { activeMembers } from '../notifications/recipients.ts';
import { readStudyCode } from '../studies/study-code.ts';

/** The outbox rows of one task notice carry this key: its state is read from them. */
export function taskNoticeDedupeKey(taskNoticeId: number): string {
  return `task_notice:${taskNoticeId}`;
}

/**
 * Sends a task notice whose period has started, in the caller's transaction: one outbox message per
 * recipient and channel (event `task_notice`; the dedupe key makes a second run write nothing), the
 * notice marked enqueued with the number of messages, audited. The worker delivers them.
 */
export async function sendTaskNotice(
  trx: Transaction<Database>,
  actor: AuditActor,
  notice: TaskNoticeRow,
): Promise<number> {
  const recipients = await activeMembers(trx, notice.study_id, notice.roles as Role[], notice.site_ids);
  const channels: NotificationChannel[] = [
    ...(notice.email ? (['email'] as const) : []),
    ...(notice.sms ? (['sms'] as const) : []),
  ];
  const studyCode = await readStudyCode(trx, notice.study_id);
  const period = `${notice.period_start} ~ ${notice.period_end}`;
  const written = await enqueueNotification(trx, {
    eventType: 'task_notice',
    studyId: notice.study_id,
    siteId: notice.site_ids.length === 1 ? (notice.site_ids[0] ?? null) : null,
    recipientUserIds: recipients,
    channels,
    dedupeKey: taskNoticeDedupeKey(notice.id),
    message: {
      subject: {
        ko: `[${studyCode}] 업무 알림: ${notice.title}`,
        en: `[${studyCode}] Task notice: ${notice.title}`,
      },
      body: {
        ko: `${notice.content}\n\n알림 기간: ${period}`,
        en: `${notice.content}\n\nNotice period: ${period}`,
      },
    },
  });
  await updateRowAudited(
    trx,
    actor,
    {
      table: 'task_notices',
      id: notice.id,
      set: { enqueued_at: new Date(), recipient_count: recipients.length },
    },
    {
      type: 'task_notice.sent',
      studyId: notice.study_id,
      after: { recipients: recipients.length, messages: written, channels },
    },
  );
  return written;
}
