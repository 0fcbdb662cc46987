import type { LabResultRow } from '@cdms/contract';
import { numericLabTests, type StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { Language, Text } from '../http/language.ts';
import { csvDocument, type ExportColumnOf, xlsxWorkbook } from '../subjects/subject-export.ts';
import { allLabResults } from './list-lab-results.ts';

/**
 * The out-of-range and clinically significant lab results as a file (issue 17 item 3): every row of
 * the listing under the page's filters, in its order — CSV streamed, XLSX built in memory, with
 * `subject-export.ts`'s writers. Tests and visits by their labels in the reader's language.
 */

const flagLabels: Record<'H' | 'L' | 'N', Text> = {
  H: { ko: 'H (높음)', en: 'H (high)' },
  L: { ko: 'L (낮음)', en: 'L (low)' },
  N: { ko: '정상 범위', en: 'Within range' },
};
const normalLabels: Record<string, Text> = {
  normal: { ko: '정상', en: 'Normal' },
  abnormal: { ko: '비정상', en: 'Abnormal' },
};

export const labResultsTitle: Text = { ko: '실험실 검사 이상 결과', en: 'Abnormal lab results' };

function columnsOf(definition: StudyDefinition): ExportColumnOf<LabResultRow>[] {
  const tests = new Map(numericLabTests(definition).map((test) => [test.testKey, test.label]));
  const visits = new Map(definition.visits.map((visit) => [visit.key, visit.label]));
  return [
    { header: { ko: '기관', en: 'Site' }, value: (row) => row.site },
    { header: { ko: '스크리닝 번호', en: 'Screening number' }, value: (row) => row.subjectId },
    {
      header: { ko: '방문', en: 'Visit' },
      value: (row, language) => visits.get(row.visitKey)?.[language] ?? row.visitKey,
    },
    { header: { ko: '검체 채취일', en: 'Specimen date' }, value: (row) => row.specimenDate },
    {
      header: { ko: '검사', en: 'Test' },
      value: (row, language) => tests.get(row.testKey)?.[language] ?? row.testKey,
    },
    { header: { ko: '결과', en: 'Result' }, value: (row) => row.value },
    { header: { ko: '단위', en: 'Unit' }, value: (row) => row.unit },
    { header: { ko: '하한', en: 'Low' }, value: (row) => row.low },
    { header: { ko: '상한', en: 'High' }, value: (row) => row.high },
    {
      header: { ko: '판정', en: 'Flag' },
      value: (row, language) => (row.flag ? flagLabels[row.flag][language] : null),
    },
    {
      header: { ko: '정상 여부', en: 'Normal/abnormal' },
      value: (row, language) => (row.normal ? (normalLabels[row.normal]?.[language] ?? row.normal) : null),
    },
    { header: { ko: '임상적 유의성', en: 'Clinical significance' }, value: (row) => row.significance },
    { header: { ko: '미해결 쿼리', en: 'Unresolved queries' }, value: (row) => row.openQueryCount },
  ];
}

export function labResultsFile(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  definition: StudyDefinition,
  filters: Parameters<typeof allLabResults>[4],
  format: 'csv' | 'xlsx',
  language: Language,
): AsyncGenerator<string> | Promise<Buffer> {
  const columns = columnsOf(definition);
  const chunks = allLabResults(db, principal, studyId, definition, filters);
  return format === 'csv'
    ? csvDocument(columns, chunks, language)
    : xlsxWorkbook(columns, chunks, language, labResultsTitle);
}
