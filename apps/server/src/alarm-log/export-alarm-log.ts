import {
  type AlarmLogEntry,
  type AlarmLogStatus,
  koreaDateTimeWithZone,
  type NotificationChannel,
  type NotificationEventType,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { Language, Text } from '../http/language.ts';
import { csvDocument, type ExportColumnOf, xlsxWorkbook } from '../subjects/subject-export.ts';
import { type AlarmLogFilters, allAlarmLogEntries } from './list-alarm-log.ts';

/**
 * The alarm log as a file (issue 18 item 4): every entry under the page's filters, newest first —
 * CSV streamed, XLSX built in memory, with `subject-export.ts`'s writers; times in UTC+9.
 */

const eventLabels: Record<NotificationEventType, Text> = {
  task_notice: { ko: '업무 알림', en: 'Task notice' },
  query_opened: { ko: '쿼리 발행', en: 'Query opened' },
  query_answered: { ko: '쿼리 답변', en: 'Query answered' },
  casebook_to_sign: { ko: '서명 요청', en: 'Casebook to sign' },
  visit_overdue: { ko: '방문 지연', en: 'Visit overdue' },
  site_hold: { ko: '프리징·잠금', en: 'Freeze or lock' },
  blind_broken: { ko: '응급 눈가림 해제', en: 'Emergency unblinding' },
  sae_report: { ko: 'SAE 보고', en: 'SAE report' },
};
const channelLabels: Record<NotificationChannel, Text> = {
  email: { ko: '이메일', en: 'E-mail' },
  sms: { ko: 'SMS', en: 'SMS' },
};
const statusLabels: Record<AlarmLogStatus, Text> = {
  queued: { ko: '대기', en: 'Queued' },
  sent: { ko: '발송', en: 'Sent' },
  failed: { ko: '실패', en: 'Failed' },
  not_sent: { ko: '미발송', en: 'Not sent' },
};

export const alarmLogTitle: Text = { ko: '알림 로그', en: 'Alarm log' };

const columns: ExportColumnOf<AlarmLogEntry>[] = [
  { header: { ko: '발생 시각', en: 'Raised at' }, value: (row) => koreaDateTimeWithZone(row.createdAt) },
  { header: { ko: '이벤트', en: 'Event' }, value: (row, language) => eventLabels[row.eventType][language] },
  { header: { ko: '채널', en: 'Channel' }, value: (row, language) => channelLabels[row.channel][language] },
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.site },
  { header: { ko: '수신자', en: 'Recipient' }, value: (row) => row.recipientName },
  { header: { ko: '주소', en: 'Address' }, value: (row) => row.recipientAddress },
  { header: { ko: '제목', en: 'Subject' }, value: (row) => row.subject },
  { header: { ko: '상태', en: 'Status' }, value: (row, language) => statusLabels[row.status][language] },
  { header: { ko: '시도 횟수', en: 'Attempts' }, value: (row) => row.attempts },
  { header: { ko: '오류', en: 'Error' }, value: (row) => row.error },
  {
    header: { ko: '발송 시각', en: 'Sent at' },
    value: (row) => (row.sentAt ? koreaDateTimeWithZone(row.sentAt) : null),
  },
];

export function alarmLogFile(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filters: AlarmLogFilters,
  format: 'csv' | 'xlsx',
  language: Language,
): AsyncGenerator<string> | Promise<Buffer> {
  const chunks = allAlarmLogEntries(db, principal, studyId, filters, language);
  return format === 'csv'
    ? csvDocument(columns, chunks, language)
    : xlsxWorkbook(columns, chunks, language, alarmLogTitle);
}
