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
