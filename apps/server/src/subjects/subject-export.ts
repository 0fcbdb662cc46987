import { Readable } from 'node:stream';
import { type CodedValue, type SubjectListRow, subjectStatusOfValue } from '@cdms/contract';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import writeExcelFile from 'write-excel-file/node';
import type { AuditActor, AuditEventType } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import type { Language, Text } from '../http/language.ts';
import { attachmentNamedInUtf8, sendDownload } from '../http/send-download.ts';
import { subjectStatusText } from './subject-status-text.ts';

/**
 * The subject list as a file (prototype-spec §2 "download"): the same rows and order as the screen,
 * one column per spec column, headers and labels in the user's language.
 */

export type Cell = string | number | null;

type ExportColumn = ExportColumnOf<SubjectListRow>;

const signatureLabels: Record<SubjectListRow['initialSignature'], Text> = {
  done: { ko: '완료', en: 'Done' },
  pending: { ko: '미완료', en: 'Pending' },
};

const label = (value: CodedValue | null, language: Language): Cell => (value ? value.label[language] : null);

export const exportColumns: ExportColumn[] = [
  { header: { ko: '번호', en: 'No.' }, value: (row) => row.number },
  { header: { ko: '스크리닝 번호', en: 'Screening number' }, value: (row) => row.subjectId },
  { header: { ko: '기관', en: 'Site' }, value: (row) => row.site },
  { header: { ko: '무작위 배정 번호', en: 'Randomization number' }, value: (row) => row.registrationNumber },
  {
    header: { ko: '상태', en: 'Status' },
    value: (row, language) => subjectStatusText[subjectStatusOfValue[row.status]][language],
  },
  { header: { ko: '성별', en: 'Sex' }, value: (row, language) => label(row.gender, language) },
  { header: { ko: '나이', en: 'Age' }, value: (row) => row.age },
  { header: { ko: '동의일', en: 'Consent date' }, value: (row) => row.consentDate },
  { header: { ko: '등록일', en: 'Registration date' }, value: (row) => row.registrationDate },
  { header: { ko: '첫 방문일', en: 'First visit date' }, value: (row) => row.firstVisitDate },
  {
    header: { ko: '마지막 방문', en: 'Last visit' },
    value: (row, language) => label(row.lastVisitDate, language),
  },
  { header: { ko: '마지막 방문일', en: 'Last visit date' }, value: (row) => row.lastVisitDateActual },
  { header: { ko: '이상사례', en: 'Adverse events' }, value: (row) => row.adverseReaction },
  { header: { ko: '미해결 쿼리', en: 'Unresolved queries' }, value: (row) => row.unresolvedQuery },
  {
    header: { ko: '시험책임자 서명', en: 'Initial signature' },
    value: (row, language) => signatureLabels[row.initialSignature][language],
  },
  {
    header: { ko: '스크리닝 탈락 사유', en: 'Screening failure reason' },
    value: (row, language) => label(row.registrationFailureReason, language),
  },
  {
    header: { ko: '중도 탈락 사유', en: 'Drop-out reason' },
    value: (row, language) => label(row.dropoutReason, language),
  },
];

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, or a leading tab or carriage return)
 * gets a leading apostrophe, so an exported value can never execute (CSV injection). Numbers stay numbers.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled; text goes
 * through the formula guard first. Shared by every CSV the server writes (lists, form tables).
 */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = neutralizeFormula(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A column of any exported list: its header in both languages and its cell per row. */
export interface ExportColumnOf<Row> {
  header: Text;
  value: (row: Row, language: Language) => Cell;
}

/** A CSV's first line: UTF-8 byte-order mark (so Excel reads Korean) and the headers. */
export function csvHeaderLineOf<Row>(columns: readonly ExportColumnOf<Row>[], language: Language): string {
  return `\uFEFF${columns.map((column) => csvField(column.header[language])).join(',')}\r\n`;
}

/** CSV lines of some rows, each ended by CRLF. */
export function csvRowLinesOf<Row>(
  columns: readonly ExportColumnOf<Row>[],
  rows: Row[],
  language: Language,
): string {
  return rows
    .map((row) => `${columns.map((column) => csvField(column.value(row, language))).join(',')}\r\n`)
    .join('');
}

/** A list as one CSV document, streamed chunk by chunk (memory stays flat at any size). */
export async function* csvDocument<Row>(
  columns: readonly ExportColumnOf<Row>[],
  chunks: AsyncIterable<Row[]>,
  language: Language,
): AsyncGenerator<string> {
  yield csvHeaderLineOf(columns, language);
  for await (const rows of chunks) if (rows.length > 0) yield csvRowLinesOf(columns, rows, language);
}

/**
 * A list as an XLSX workbook. A workbook is a zip written at the end, so its rows are held in
 * memory (`write-excel-file` has no streaming writer); CSV is the format for very large lists.
 */
export async function xlsxWorkbook<Row>(
  columns: readonly ExportColumnOf<Row>[],
  chunks: AsyncIterable<Row[]>,
  language: Language,
  sheet: Text,
): Promise<Buffer> {
  const rows: Row[] = [];
  for await (const chunk of chunks) rows.push(...chunk);
  const sheetData = [
    columns.map((column) => ({ value: column.header[language], fontWeight: 'bold' as const })),
    // Text cells are typed String: a spreadsheet shows them as written and never evaluates them.
    ...rows.map((row) =>
      columns.map((column) => {
        const value = column.value(row, language);
        if (value === null) return null;
        return typeof value === 'number' ? { value, type: Number } : { value, type: String };
      }),
    ),
  ];
  return writeExcelFile(sheetData, {
    sheet: sheet[language],
    stickyRowsCount: 1,
    columns: columns.map((column) => ({ width: Math.max(10, column.header[language].length * 2) })),
  }).toBuffer();
}

/** The subject list CSV's first line. */
export function csvHeaderLine(language: Language): string {
  return csvHeaderLineOf(exportColumns, language);
}

/** CSV lines of some subject rows. */
export function csvRowLines(rows: SubjectListRow[], language: Language): string {
  return csvRowLinesOf(exportColumns, rows, language);
}

/** The subject list as one CSV document, streamed chunk by chunk. */
export function subjectsCsv(
  chunks: AsyncIterable<SubjectListRow[]>,
  language: Language,
): AsyncGenerator<string> {
  return csvDocument(exportColumns, chunks, language);
}

/** The subject list as an XLSX workbook. */
export function subjectsXlsx(chunks: AsyncIterable<SubjectListRow[]>, language: Language): Promise<Buffer> {
  return xlsxWorkbook(exportColumns, chunks, language, { ko: '대상자 목록', en: 'Subjects' });
}

export const exportContentTypes = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** `attachment; filename="TMP-2026_subjects_2026-05-01.csv"` (`attachmentNamedInUtf8`). */
export function exportDisposition(
  studyCode: string,
  today: string,
  format: 'csv' | 'xlsx',
  what = 'subjects',
): string {
  return attachmentNamedInUtf8(`${studyCode}_${what}_${today}.${format}`);
}

/**
 * Answers with a list download named by `exportDisposition`: CSV streamed as it is written, XLSX (a
 * zip, built whole) sent as one buffer.
 */
export function sendListExport(
  reply: FastifyReply,
  format: 'csv' | 'xlsx',
  name: { studyCode: string; today: string; what?: string },
  file: AsyncIterable<string> | Buffer,
) {
  return sendDownload(
    reply,
    exportContentTypes[format],
    exportDisposition(name.studyCode, name.today, format, name.what),
    Buffer.isBuffer(file) ? file : Readable.from(file),
  );
}

/**
 * A list leaving the system, audited against its study with what was asked for (format, filters,
 * rows): recorded before the first byte leaves, so no download goes unrecorded.
 */
export function recordListExport(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  type: AuditEventType,
  after: Record<string, unknown>,
): Promise<void> {
  return recordAudit(db, actor, { type, entityType: 'study', entityId: studyId, studyId, after });
}
