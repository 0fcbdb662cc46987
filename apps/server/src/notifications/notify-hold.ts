import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { enqueueNotification } from './enqueue-notification.ts';
import { membersAtSite } from './recipients.ts';

/**
 * Issue 18: a freeze or lock of a whole site (or of the study, so of every site) tells the people who
 * enter and review data there — PI, SI, CRC and CRA — with the reason given. Holds on single subjects,
 * visits or forms are seen where they apply and send nothing.
 */
export async function notifySiteHold(
  trx: Transaction<Database>,
  hold: { id: number; studyId: number; level: string; siteId: number | null; kind: 'frozen' | 'locked' },
  reason: string,
  actorUserId: number,
): Promise<void> {
  if (hold.level !== 'site' && hold.level !== 'study') return;
  const studyCode = await readStudyCode(trx, hold.studyId);
  const sites = await trx
    .selectFrom('sites')
    .select(['id', 'code', 'name'])
    .where('study_id', '=', hold.studyId)
    .$if(hold.level === 'site', (query) => query.where('id', '=', hold.siteId ?? -1))
    .orderBy('institution_number')
    .execute();
  const what = hold.kind === 'locked' ? { ko: '잠금', en: 'locked' } : { ko: '프리징', en: 'frozen' };
  const effect =
    hold.kind === 'locked'
      ? {
          ko: '데이터 입력, 수정, 쿼리 답변을 할 수 없습니다.',
          en: 'No entry, change or query answer is possible.',
        }
      : {
          ko: '데이터를 수정할 수 없으며 쿼리, SDV, 전자서명은 계속할 수 있습니다.',
          en: 'Data cannot be changed; queries, SDV and signatures go on.',
        };
  for (const site of sites) {
    const recipients = await membersAtSite(trx, hold.studyId, site.id, ['PI', 'SI', 'CRC', 'CRA']);
    const scope =
      hold.level === 'study'
        ? { ko: `${studyCode} 연구 전체`, en: `the whole study ${studyCode}` }
        : {
            ko: `${studyCode} ${site.name}(${site.code})`,
            en: `${site.name} (${site.code}) in ${studyCode}`,
          };
    await enqueueNotification(trx, {
      eventType: 'site_hold',
      studyId: hold.studyId,
      siteId: site.id,
      recipientUserIds: recipients.filter((userId) => userId !== actorUserId),
      message: {
        subject: {
          ko: `[CDMS] ${scope.ko} 데이터 ${what.ko}`,
          en: `[CDMS] Data of ${scope.en} ${what.en}`,
        },
        body: {
          ko: `${scope.ko}의 데이터가 ${what.ko} 처리되었습니다. ${effect.ko}\n사유: ${reason}`,
          en: `The data of ${scope.en} was ${what.en}. ${effect.en}\nReason: ${reason}`,
        },
      },
    });
  }
}
