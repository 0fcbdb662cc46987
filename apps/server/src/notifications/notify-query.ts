import type { StudyDefinition } from '@cdms/study';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { formLabelOf, visitLabelOf } from '../studies/definition-labels.ts';
import { enqueueNotification } from './enqueue-notification.ts';
import { membersAtSite } from './recipients.ts';

interface QueryFacts {
  id: number;
  study_id: number;
  site_id: number;
  subject_id: number;
  visit_key: string;
  form_key: string;
  opened_by: number | null;
}

/**
 * Issue 18: a manual query opened on a site tells its staff (PI, SI, CRC); an answer tells the site's
 * monitors and whoever opened the query. Written in the query's transaction. The e-mail names the
 * subject's screening number, the visit and the form — never the query's text or any value, which stay
 * behind the sign-in.
 */
export async function notifyQueryEvent(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  query: QueryFacts,
  event: 'query_opened' | 'query_answered',
  actorUserId: number | null,
): Promise<void> {
  const subject = await trx
    .selectFrom('subjects')
    .select('screening_number')
    .where('id', '=', query.subject_id)
    .executeTakeFirstOrThrow();
  const recipients =
    event === 'query_opened'
      ? await membersAtSite(trx, query.study_id, query.site_id, ['PI', 'SI', 'CRC'])
      : [
          ...(await membersAtSite(trx, query.study_id, query.site_id, ['CRA'])),
          ...(query.opened_by !== null ? [query.opened_by] : []),
        ];
  const visit = visitLabelOf(definition, query.visit_key);
  const form = formLabelOf(definition, query.form_key);
  const where = {
    ko: `${subject.screening_number} ${visit.ko} ${form.ko}`,
    en: `${subject.screening_number} ${visit.en} ${form.en}`,
  };
  const message =
    event === 'query_opened'
      ? {
          subject: { ko: `[CDMS] 쿼리 발행: ${where.ko}`, en: `[CDMS] Query opened: ${where.en}` },
          body: {
            ko: `${where.ko}에 쿼리가 발행되었습니다(쿼리 번호 ${query.id}).\nCDMS에 로그인하여 확인하고 답변하십시오.`,
            en: `A query was opened on ${where.en} (query no. ${query.id}).\nSign in to CDMS to read and answer it.`,
          },
        }
      : {
          subject: { ko: `[CDMS] 쿼리 답변: ${where.ko}`, en: `[CDMS] Query answered: ${where.en}` },
          body: {
            ko: `${where.ko}의 쿼리(번호 ${query.id})에 답변이 등록되었습니다.\nCDMS에 로그인하여 확인하십시오.`,
            en: `The query no. ${query.id} on ${where.en} was answered.\nSign in to CDMS to review it.`,
          },
        };
  await enqueueNotification(trx, {
    eventType: event,
    studyId: query.study_id,
    siteId: query.site_id,
    // Nobody is told of what they did themselves.
    recipientUserIds: recipients.filter((userId) => userId !== actorUserId),
    message,
  });
}
