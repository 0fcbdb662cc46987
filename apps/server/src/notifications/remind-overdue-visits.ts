import { todayInKorea } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { enqueueNotification } from './enqueue-notification.ts';
import { membersAtSite } from './recipients.ts';

/** Visits named in one reminder; the rest are counted. */
const LISTED = 20;

interface OverdueVisit {
  site_id: number;
  screening_number: string;
  visit_key: string;
  latest_date: string;
  days: number | string;
}

function visitLabel(
  definition: StudyDefinition | undefined,
  visitKey: string,
  language: 'ko' | 'en',
): string {
  return definition?.visits.find((visit) => visit.key === visitKey)?.label[language] ?? visitKey;
}

/**
 * Issue 18: once a day, each site's staff (PI, SI, CRC) of an active study get one reminder listing the
 * visits of ongoing subjects whose window has closed without a visit date — from the read model's
 * visit windows, oldest first. The day and site are the message's dedupe key, so running this again
 * the same day (another process, a restart) writes nothing. Returns the messages written.
 */
export async function remindOverdueVisits(db: Kysely<Database>, today = todayInKorea()): Promise<number> {
  const studies = await db
    .selectFrom('studies')
    .select(['id', 'code'])
    .where('status', '=', 'active')
    .execute();
  let written = 0;
  for (const study of studies) {
    const overdue = await sql<OverdueVisit>`
      select w.site_id, w.screening_number, w.visit_key, w.latest_date::text as latest_date,
        ${today}::date - w.latest_date as days
      from subject_visit_windows w
      where w.study_id = ${study.id} and w.subject_status = 'ongoing' and w.actual_date is null
        and w.latest_date < ${today}::date
      order by w.site_id, w.latest_date, w.screening_number collate "C", w.visit_order`.execute(db);
    if (overdue.rows.length === 0) continue;
    const definition = (await currentStudyDefinition(db, study.id))?.definition;
    const bySite = new Map<number, OverdueVisit[]>();
    for (const row of overdue.rows) bySite.set(row.site_id, [...(bySite.get(row.site_id) ?? []), row]);
    for (const [siteId, visits] of bySite) {
      const lines = (language: 'ko' | 'en') =>
        visits
          .slice(0, LISTED)
          .map((visit) =>
            language === 'ko'
              ? `- ${visit.screening_number} ${visitLabel(definition, visit.visit_key, 'ko')}: 허용 범위 종료 ${visit.latest_date}, ${Number(visit.days)}일 경과`
              : `- ${visit.screening_number} ${visitLabel(definition, visit.visit_key, 'en')}: window closed ${visit.latest_date}, ${Number(visit.days)} days ago`,
          )
          .join('\n');
      const more = visits.length - LISTED;
      written += await inTransaction(db, async (trx) =>
        enqueueNotification(trx, {
          eventType: 'visit_overdue',
          studyId: study.id,
          siteId,
          recipientUserIds: await membersAtSite(trx, study.id, siteId, ['PI', 'SI', 'CRC']),
          dedupeKey: `visit_overdue:${today}:${siteId}`,
          message: {
            subject: {
              ko: `[CDMS] ${study.code} 방문 기한 경과 ${visits.length}건 (${today})`,
              en: `[CDMS] ${study.code}: ${visits.length} overdue visits (${today})`,
            },
            body: {
              ko: `허용 범위가 지났는데 방문일이 입력되지 않은 방문입니다.\n${lines('ko')}${more > 0 ? `\n외 ${more}건` : ''}\nCDMS의 방문 알림에서 확인하십시오.`,
              en: `Visits whose window has closed without a visit date.\n${lines('en')}${more > 0 ? `\nand ${more} more` : ''}\nSee the visit alarms in CDMS.`,
            },
          },
        }),
      );
    }
  }
  return written;
}

/**
 * Runs the reminder at start and then every hour (unref'd: it never keeps the process alive); the
 * first run of each Korean day writes it, the others find it written.
 */
export function scheduleOverdueVisitReminders(
  db: Kysely<Database>,
  onError: (error: unknown) => void,
): { stop(): void } {
  const run = () => {
    remindOverdueVisits(db).catch(onError);
  };
  const first = setTimeout(run, 5_000);
  const hourly = setInterval(run, 3_600_000);
  first.unref();
  hourly.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(hourly);
    },
  };
}
