import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enqueueNotification } from './enqueue-notification.ts';
import { membersAtSite } from './recipients.ts';

/**
 * Issue 18: data changed after the casebook was signed — the site's principal investigator is asked
 * to sign it again. One message per signature that lost force (the next change finds none in force).
 */
export async function notifyResignRequired(
  trx: Transaction<Database>,
  subject: { id: number; study_id: number; site_id: number; screening_number: string },
  actorUserId: number | null,
): Promise<void> {
  const investigators = await membersAtSite(trx, subject.study_id, subject.site_id, ['PI']);
  await enqueueNotification(trx, {
    eventType: 'casebook_to_sign',
    studyId: subject.study_id,
    siteId: subject.site_id,
    recipientUserIds: investigators.filter((userId) => userId !== actorUserId),
    message: {
      subject: {
        ko: `[CDMS] 전자서명 다시 필요: ${subject.screening_number}`,
        en: `[CDMS] Signature needed again: ${subject.screening_number}`,
      },
      body: {
        ko: `${subject.screening_number} 대상자의 서명된 데이터가 변경되어 증례기록에 다시 전자서명해야 합니다.\nCDMS에 로그인하여 변경 내용을 확인하고 서명하십시오.`,
        en: `Signed data of subject ${subject.screening_number} changed: the casebook needs your signature again.\nSign in to CDMS to review the changes and sign.`,
      },
    },
  });
}

/**
 * Issue 18: the subject finished the study (complete) or left it (dropout), so the casebook is whole
 * and waits for the investigator's first signature: the site's PIs are told once per subject (a status
 * that goes back and forth does not ask twice), unless a signature is already in force.
 */
export async function notifyCasebookReadyToSign(
  trx: Transaction<Database>,
  subject: { id: number; study_id: number; site_id: number; screening_number: string },
  status: 'complete' | 'dropout',
): Promise<void> {
  const signed = await trx
    .selectFrom('signatures')
    .select('id')
    .where('subject_id', '=', subject.id)
    .where('invalidated_at', 'is', null)
    .executeTakeFirst();
  if (signed) return;
  const investigators = await membersAtSite(trx, subject.study_id, subject.site_id, ['PI']);
  const why =
    status === 'complete'
      ? { ko: '시험을 완료하여', en: 'completed the study' }
      : { ko: '중도 탈락하여', en: 'dropped out' };
  await enqueueNotification(trx, {
    eventType: 'casebook_to_sign',
    studyId: subject.study_id,
    siteId: subject.site_id,
    recipientUserIds: investigators,
    dedupeKey: `casebook-ready:${subject.id}`,
    message: {
      subject: {
        ko: `[CDMS] 전자서명 요청: ${subject.screening_number}`,
        en: `[CDMS] Casebook ready to sign: ${subject.screening_number}`,
      },
      body: {
        ko: `${subject.screening_number} 대상자가 ${why.ko} 증례기록에 시험책임자의 전자서명이 필요합니다.\nCDMS에 로그인하여 증례기록을 검토하고 서명하십시오.`,
        en: `Subject ${subject.screening_number} ${why.en}: the casebook needs the investigator's signature.\nSign in to CDMS to review the casebook and sign.`,
      },
    },
  });
}
