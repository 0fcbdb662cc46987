import {
  type AdverseEventRow,
  type EnrollmentReport,
  type MissingFormRow,
  type ProtocolDeviationKind,
  type ProtocolDeviationRow,
  type QueryAgingLine,
  queryAgeBuckets,
  type ReportCoded,
  type ReportFilter,
  type ReportKey,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Language, Text } from '../http/language.ts';
import { csvDocument, type ExportColumnOf, xlsxWorkbook } from '../subjects/subject-export.ts';
import { allAdverseEvents } from './ae-listing-report.ts';
import { enrollmentReport } from './enrollment-report.ts';
import { allMissingForms } from './missing-forms-report.ts';
import { allProtocolDeviations } from './protocol-deviations-report.ts';
import { queryAgingReport } from './query-aging-report.ts';
import type { ReportContext } from './report-context.ts';

/**
 * A report as a file (CSV streamed, XLSX built in memory, `subject-export.ts`'s writers): the
 * listings every row in the screen's order, the tables of enrollment and query aging their lines.
 */

const coded = (value: ReportCoded, language: Language) => (value ? value.label[language] : null);
const yes: Text = { ko: '예', en: 'Yes' };

export const reportTitles: Record<ReportKey, Text> = {
  enrollment: { ko: '등록 현황', en: 'Enrollment' },
  missingForms: { ko: '누락 양식', en: 'Missing forms' },
  queryAging: { ko: '쿼리 경과', en: 'Query aging' },
  protocolDeviations: { ko: '프로토콜 위반', en: 'Protocol deviations' },
  adverseEvents: { ko: '이상사례 목록', en: 'Adverse events' },
};

export const deviationLabels: Record<ProtocolDeviationKind, Text> = {
  outOfWindow: { ko: '방문 허용 범위 이탈', en: 'Visit out of window' },
  eligibleWhileCriterionFails: { ko: '기준 미충족인데 적합', en: 'Eligible while a criterion fails' },
  treatmentOffVisitDate: {
    ko: '적용 방문일 외 시험 치료 적용',
    en: 'Treatment not applied on its visit date',
  },
  missingPregnancyTest: { ko: '임신 검사 누락', en: 'Pregnancy test missing' },
};

interface EnrollmentLine {
  site: string;
  month: string;
  screened: number;
  screeningFailures: number;
  randomized: number;
  target: number | null;
}

const enrollmentColumns: ExportColumnOf<EnrollmentLine>[] = [
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.site },
  { header: { ko: '월', en: 'Month' }, value: (row) => row.month },
  { header: { ko: '스크리닝', en: 'Screened' }, value: (row) => row.screened },
  { header: { ko: '스크리닝 탈락', en: 'Screening failures' }, value: (row) => row.screeningFailures },
  { header: { ko: '무작위 배정', en: 'Randomized' }, value: (row) => row.randomized },
  { header: { ko: '목표', en: 'Target' }, value: (row) => row.target },
];

/** One line per site (with its target) and one per month (study-wide within the filter). */
export function enrollmentLines(report: EnrollmentReport, language: Language): EnrollmentLine[] {
  const all = language === 'ko' ? '전체' : 'All';
  return [
    ...report.sites.map((site) => ({
      site: site.siteCode,
      month: all,
      screened: site.screened,
      screeningFailures: site.screeningFailures,
      randomized: site.randomized,
      target: site.target,
    })),
    ...report.months.map((month) => ({
      site: all,
      month: month.month,
      screened: month.screened,
      screeningFailures: month.screeningFailures,
      randomized: month.randomized,
      target: null,
    })),
  ];
}

type AgingLine = QueryAgingLine & { site: string };
const agingColumns: ExportColumnOf<AgingLine>[] = [
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.site },
  ...queryAgeBuckets.map(
    (bucket): ExportColumnOf<AgingLine> => ({
      header: { ko: `열림 ${bucket}일`, en: `Open ${bucket} days` },
      value: (row) => row.open[bucket],
    }),
  ),
  ...queryAgeBuckets.map(
    (bucket): ExportColumnOf<AgingLine> => ({
      header: { ko: `답변됨 ${bucket}일`, en: `Answered ${bucket} days` },
      value: (row) => row.answered[bucket],
    }),
  ),
  {
    header: { ko: '답변까지 중앙값(일)', en: 'Median days to answer' },
    value: (row) => row.medianDaysToAnswer,
  },
  {
    header: { ko: '종료까지 중앙값(일)', en: 'Median days to close' },
    value: (row) => row.medianDaysToClose,
  },
];

const subjectColumns = <Row extends { siteCode: string; subjectId: string }>(): ExportColumnOf<Row>[] => [
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.siteCode },
  { header: { ko: '스크리닝 번호', en: 'Screening number' }, value: (row) => row.subjectId },
];

const missingFormColumns: ExportColumnOf<MissingFormRow>[] = [
  ...subjectColumns<MissingFormRow>(),
  { header: { ko: '방문', en: 'Visit' }, value: (row, language) => row.visitLabel[language] },
  { header: { ko: '양식', en: 'Form' }, value: (row, language) => row.formLabel[language] },
  {
    header: { ko: '상태', en: 'State' },
    value: (row, language) =>
      (row.state === 'empty' ? { ko: '미입력', en: 'Empty' } : { ko: '입력 중', en: 'Incomplete' })[language],
  },
  { header: { ko: '기준일', en: 'Due date' }, value: (row) => row.dueDate },
  { header: { ko: '경과일', en: 'Days outstanding' }, value: (row) => row.daysOutstanding },
];

const deviationColumns: ExportColumnOf<ProtocolDeviationRow>[] = [
  ...subjectColumns<ProtocolDeviationRow>(),
  { header: { ko: '종류', en: 'Kind' }, value: (row, language) => deviationLabels[row.kind][language] },
  { header: { ko: '방문', en: 'Visit' }, value: (row, language) => row.visitLabel[language] },
  { header: { ko: '날짜', en: 'Date' }, value: (row) => row.date },
  { header: { ko: '일수', en: 'Days' }, value: (row) => row.days },
  { header: { ko: '내용', en: 'Detail' }, value: (row, language) => row.detail[language] },
];

const adverseEventColumns: ExportColumnOf<AdverseEventRow>[] = [
  ...subjectColumns<AdverseEventRow>(),
  { header: { ko: '번호', en: 'No.' }, value: (row) => row.eventNumber },
  { header: { ko: '이상사례명', en: 'Term' }, value: (row) => row.term },
  { header: { ko: '발현일', en: 'Start date' }, value: (row) => row.startDate },
  { header: { ko: '종료일', en: 'End date' }, value: (row) => row.endDate },
  { header: { ko: '중대성', en: 'Serious' }, value: (row, language) => (row.serious ? yes[language] : null) },
  { header: { ko: '중증도', en: 'Severity' }, value: (row, language) => coded(row.severity, language) },
  {
    header: { ko: '인과관계', en: 'Relationship' },
    value: (row, language) => coded(row.causality, language),
  },
  { header: { ko: '조치', en: 'Action' }, value: (row, language) => coded(row.deviceAction, language) },
  { header: { ko: '결과', en: 'Outcome' }, value: (row, language) => coded(row.outcome, language) },
];

async function* once<Row>(rows: Row[]): AsyncGenerator<Row[]> {
  yield rows;
}

/** The report's file: CSV as a stream of text, XLSX as one buffer. */
export async function reportFile(
  db: Kysely<Database>,
  context: ReportContext,
  report: ReportKey,
  filter: ReportFilter,
  format: 'csv' | 'xlsx',
  language: Language,
): Promise<AsyncGenerator<string> | Buffer> {
  const write = <Row>(columns: ExportColumnOf<Row>[], chunks: AsyncGenerator<Row[]>) =>
    format === 'csv'
      ? csvDocument(columns, chunks, language)
      : xlsxWorkbook(columns, chunks, language, reportTitles[report]);
  switch (report) {
    case 'enrollment':
      return write(
        enrollmentColumns,
        once(enrollmentLines(await enrollmentReport(db, context, filter), language)),
      );
    case 'queryAging': {
      const aging = await queryAgingReport(db, context, filter);
      const all = language === 'ko' ? '전체' : 'All';
      return write(
        agingColumns,
        once([
          ...aging.sites.map((site) => ({ ...site, site: site.siteCode })),
          { ...aging.total, site: all },
        ]),
      );
    }
    case 'missingForms':
      return write(missingFormColumns, allMissingForms(db, context, filter));
    case 'protocolDeviations':
      return write(deviationColumns, allProtocolDeviations(db, context, filter));
    case 'adverseEvents':
      return write(adverseEventColumns, allAdverseEvents(db, context, filter));
  }
}
