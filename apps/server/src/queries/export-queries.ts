import {
  koreaDateTime,
  type QueryAssignee,
  type QueryKindValue,
  type QueryListFilter,
  type QueryListRow,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { Language, Text } from '../http/language.ts';
import { csvDocument, type ExportColumnOf, xlsxWorkbook } from '../subjects/subject-export.ts';
import { allQueryRows, countListedQueries, queryListContext } from './list-queries.ts';
import { queryStateText } from './query-state-text.ts';

/** The query list as a file: the screen's filters and order, every row, in the reader's language. */

const kindLabels: Record<QueryKindValue, Text> = {
  system: { ko: '시스템', en: 'System' },
  manual: { ko: '수동', en: 'Manual' },
};
const assigneeLabels: Record<QueryAssignee, Text> = {
  site: { ko: '기관', en: 'Site' },
  monitor: { ko: '모니터요원', en: 'Monitor' },
  dataManagement: { ko: '데이터 관리', en: 'Data management' },
};

/** An instant as the screens show it (UTC+9), or nothing. */
function koreaTime(iso: string | null): string | null {
  return iso === null ? null : koreaDateTime(iso);
}

export const queryExportColumns: ExportColumnOf<QueryListRow>[] = [
  { header: { ko: '쿼리 번호', en: 'Query no.' }, value: (row) => row.id },
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.subject.site },
  { header: { ko: '스크리닝 번호', en: 'Screening number' }, value: (row) => row.subject.subjectId },
  {
    header: { ko: '무작위 배정 번호', en: 'Randomization number' },
    value: (row) => row.subject.registrationNumber,
  },
  { header: { ko: '방문', en: 'Visit' }, value: (row, language) => row.visitLabel[language] },
  { header: { ko: '양식', en: 'Form' }, value: (row, language) => row.formLabel[language] },
  { header: { ko: '항목', en: 'Item' }, value: (row, language) => row.itemLabel[language] },
  { header: { ko: '종류', en: 'Kind' }, value: (row, language) => kindLabels[row.kind][language] },
  { header: { ko: '상태', en: 'State' }, value: (row, language) => queryStateText[row.state][language] },
  {
    header: { ko: '재오픈', en: 'Reopened' },
    value: (row, language) => (row.reopened ? (language === 'ko' ? '예' : 'Yes') : ''),
  },
  {
    header: { ko: '담당', en: 'Assignee' },
    value: (row, language) => assigneeLabels[row.assignee][language],
  },
  { header: { ko: '발행일시', en: 'Opened at' }, value: (row) => koreaTime(row.openedAt) },
  { header: { ko: '경과일', en: 'Age (days)' }, value: (row) => row.ageDays },
  { header: { ko: '종료일시', en: 'Closed at' }, value: (row) => koreaTime(row.closedAt) },
  { header: { ko: '메시지 수', en: 'Messages' }, value: (row) => row.messageCount },
  {
    header: { ko: '마지막 메시지', en: 'Last message' },
    value: (row, language) => row.lastMessage.text[language],
  },
  {
    header: { ko: '마지막 메시지 일시', en: 'Last message at' },
    value: (row) => koreaTime(row.lastMessage.at),
  },
];

export async function queryDownload(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  filter: QueryListFilter,
): Promise<{ studyCode: string; today: string; total: number; chunks: AsyncGenerator<QueryListRow[]> }> {
  const context = await queryListContext(db, principal, studyId, filter.siteId);
  const total = await countListedQueries(db, context, filter);
  return {
    studyCode: context.studyCode,
    today: context.today,
    total,
    chunks: allQueryRows(db, context, filter),
  };
}

export function queriesCsv(chunks: AsyncIterable<QueryListRow[]>, language: Language) {
  return csvDocument(queryExportColumns, chunks, language);
}

export function queriesXlsx(chunks: AsyncIterable<QueryListRow[]>, language: Language) {
  return xlsxWorkbook(queryExportColumns, chunks, language, { ko: '쿼리 목록', en: 'Queries' });
}
