import { koreaDateTimeWithZone } from '@cdms/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enqueueNotification } from '../notifications/enqueue-notification.ts';
import { activeMembers, membersAtSite } from '../notifications/recipients.ts';

/** What a notification about a report names. */
export interface SaeNotice {
  reportId: number;
  studyId: number;
  siteId: number;
  screeningNumber: string;
  eventNumber: number;
  version: number;
  dueAt: Date;
}

const SITE_ROLES = ['PI', 'SI', 'CRC'] as const;
const label = (notice: SaeNotice) => `${notice.screeningNumber} #${notice.eventNumber}`;

/** An event was answered serious: the site's investigators and coordinators start the report. */
export async function notifySaeStarted(
  trx: Transaction<Database>,
  notice: SaeNotice,
  actorUserId: number | null,
): Promise<void> {
  const recipients = await membersAtSite(trx, notice.studyId, notice.siteId, [...SITE_ROLES]);
  const due = koreaDateTimeWithZone(notice.dueAt);
  await enqueueNotification(trx, {
    eventType: 'sae_report',
    studyId: notice.studyId,
    siteId: notice.siteId,
    recipientUserIds: recipients.filter((id) => id !== actorUserId),
    dedupeKey: `sae-started:${notice.reportId}`,
    message: {
      subject: {
        ko: `[CDMS] 중대한 이상사례 보고 시작: ${label(notice)}`,
        en: `[CDMS] Serious adverse event report started: ${label(notice)}`,
      },
      body: {
        ko: `${label(notice)} 이상사례이 중대한 것으로 기록되었습니다. 시험책임자는 ${due}까지 의뢰자에게 보고해야 합니다.\nCDMS에 로그인하여 SAE 보고서를 작성하십시오.`,
        en: `Adverse event ${label(notice)} was recorded as serious. The investigator must report it to the sponsor by ${due}.\nSign in to CDMS to complete the SAE report.`,
      },
    },
  });
}

/** The PI submitted a version: the study's safety desk receives it. */
export async function notifySaeSubmitted(trx: Transaction<Database>, notice: SaeNotice): Promise<void> {
  const desk = await activeMembers(trx, notice.studyId, ['SAFETY'], []);
  const kind =
    notice.version === 1
      ? { ko: '최초 보고', en: 'initial report' }
      : { ko: `추적 보고 ${notice.version - 1}`, en: `follow-up ${notice.version - 1}` };
  await enqueueNotification(trx, {
    eventType: 'sae_report',
    studyId: notice.studyId,
    siteId: notice.siteId,
    recipientUserIds: desk,
    dedupeKey: `sae-submitted:${notice.reportId}:${notice.version}`,
    message: {
      subject: {
        ko: `[CDMS] SAE 보고 제출(${kind.ko}): ${label(notice)}`,
        en: `[CDMS] SAE report submitted (${kind.en}): ${label(notice)}`,
      },
      body: {
        ko: `시험책임자가 ${label(notice)} SAE 보고(${kind.ko})를 전자서명하여 제출했습니다.\nCDMS에 로그인하여 검토하고 접수를 확인하십시오.`,
        en: `The investigator signed and submitted the SAE report of ${label(notice)} (${kind.en}).\nSign in to CDMS to review it and acknowledge receipt.`,
      },
    },
  });
}

/** The safety desk acknowledged a version: the site is told. */
export async function notifySaeAcknowledged(trx: Transaction<Database>, notice: SaeNotice): Promise<void> {
  const recipients = await membersAtSite(trx, notice.studyId, notice.siteId, ['PI', 'SI', 'CRC']);
  await enqueueNotification(trx, {
    eventType: 'sae_report',
    studyId: notice.studyId,
    siteId: notice.siteId,
    recipientUserIds: recipients,
    dedupeKey: `sae-acknowledged:${notice.reportId}:${notice.version}`,
    message: {
      subject: {
        ko: `[CDMS] SAE 보고 접수 확인: ${label(notice)}`,
        en: `[CDMS] SAE report acknowledged: ${label(notice)}`,
      },
      body: {
        ko: `의뢰자 안전성 담당자가 ${label(notice)} SAE 보고(버전 ${notice.version})의 접수를 확인했습니다.`,
        en: `The sponsor's safety desk acknowledged the SAE report of ${label(notice)} (version ${notice.version}).`,
      },
    },
  });
}

/** A reminder of a report not yet submitted: 12 hours left, or overdue. Written once per report and kind. */
export async function notifySaeReminder(
  trx: Transaction<Database>,
  notice: SaeNotice,
  kind: 'twelveHoursLeft' | 'overdue',
): Promise<number> {
  const recipients = await membersAtSite(trx, notice.studyId, notice.siteId, [...SITE_ROLES]);
  const due = koreaDateTimeWithZone(notice.dueAt);
  const words =
    kind === 'overdue'
      ? {
          subject: { ko: 'SAE 보고 기한 초과', en: 'SAE report overdue' },
          body: {
            ko: `${label(notice)} SAE 보고가 기한(${due})까지 제출되지 않았습니다. 즉시 제출하십시오.`,
            en: `The SAE report of ${label(notice)} was not submitted by its due time (${due}). Submit it now.`,
          },
        }
      : {
          subject: { ko: 'SAE 보고 기한 12시간 전', en: 'SAE report due in 12 hours' },
          body: {
            ko: `${label(notice)} SAE 보고의 제출 기한은 ${due}입니다.`,
            en: `The SAE report of ${label(notice)} is due by ${due}.`,
          },
        };
  return enqueueNotification(trx, {
    eventType: 'sae_report',
    studyId: notice.studyId,
    siteId: notice.siteId,
    recipientUserIds: recipients,
    dedupeKey: `sae-reminder:${kind}:${notice.reportId}`,
    message: {
      subject: {
        ko: `[CDMS] ${words.subject.ko}: ${label(notice)}`,
        en: `[CDMS] ${words.subject.en}: ${label(notice)}`,
      },
      body: words.body,
    },
  });
}
