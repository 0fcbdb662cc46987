import {
  koreaDateTime,
  type ReviewRow,
  type ReviewState,
  type reviewListingExportQuerySchema,
  todayInKorea,
} from '@cdms/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { Language, Text } from '../http/language.ts';
import { readStudyCode } from '../studies/study-code.ts';
import { type Cell, csvDocument, type ExportColumnOf, xlsxWorkbook } from '../subjects/subject-export.ts';
import { listingContext } from './list-review-listing.ts';
import { reviewRowOf } from './review-cells.ts';
import { countListingRows, plainValuesOf, readListingRows } from './review-listing-sql.ts';

export type ReviewListingExportInput = z.output<typeof reviewListingExportQuerySchema>;

/** Rows read per statement while the file is written: memory holds one chunk, whatever the trial's size. */
const CHUNK = 500;

const reviewWords: Record<ReviewState, Text> = {
  not_reviewed: { ko: '검토 안 함', en: 'Not reviewed' },
  reviewed: { ko: '검토함', en: 'Reviewed' },
  changed: { ko: '검토 후 변경됨', en: 'Changed since review' },
};

const time = (iso: string | null): Cell => (iso === null ? null : koreaDateTime(iso));

/**
 * The filtered listing as CSV (UTF-8 with BOM, streamed) or XLSX (`subjects/subject-export.ts`'s
 * writers and formula guard), in the screen's order, with the columns the reader shows: the same statement as the page,
 * read in chunks of 500 rows, each chunk's plain values in one more statement.
 */
export async function reviewListingDownload(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  tableName: string,
  query: ReviewListingExportInput,
  language: Language,
) {
  const { definition, table, filter, siteCodes } = await listingContext(
    db,
    principal,
    studyId,
    tableName,
    query,
  );
  const chosen = query.columns
    ?.split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  const itemColumns = table.columns.filter((column) => !chosen || chosen.includes(column.item.key));
  const columns: ExportColumnOf<ReviewRow>[] = [
    { header: { ko: '스크리닝 번호', en: 'Screening number' }, value: (row) => row.screeningNumber },
    { header: { ko: '기관', en: 'Site' }, value: (row) => row.siteCode },
    { header: { ko: '방문', en: 'Visit' }, value: (row, lang) => row.visitLabel[lang] },
    ...(table.groupKey === null
      ? []
      : [
          {
            header: { ko: '행', en: 'Row' },
            value: (row: ReviewRow) => (row.row === null ? null : row.row + 1),
          },
        ]),
    { header: { ko: '양식 상태', en: 'Form status' }, value: (row) => row.formStatus },
    { header: { ko: '마지막 저장', en: 'Last saved' }, value: (row) => time(row.savedAt) },
    { header: { ko: '검토', en: 'Review' }, value: (row, lang) => reviewWords[row.review][lang] },
    { header: { ko: '검토 일시', en: 'Reviewed at' }, value: (row) => time(row.reviewedAt) },
    { header: { ko: '검토자', en: 'Reviewed by' }, value: (row) => row.reviewedBy },
    ...itemColumns.map((column) => ({
      header: column.item.label,
      value: (row: ReviewRow) => row.cells[column.item.key] ?? null,
    })),
  ];
  async function* chunks(): AsyncGenerator<ReviewRow[]> {
    for (let offset = 0; ; offset += CHUNK) {
      const rows = await readListingRows(db, definition, filter, { limit: CHUNK, offset });
      if (rows.length === 0) return;
      const plain =
        table.groupKey === null
          ? await plainValuesOf(
              db,
              rows.map((row) => row.form_instance_id),
              itemColumns.map((column) => column.item.key),
            )
          : new Map<number, Record<string, unknown>>();
      yield rows.map((row) =>
        reviewRowOf(definition, table, row, plain.get(row.form_instance_id), siteCodes, language),
      );
      if (rows.length < CHUNK) return;
    }
  }
  return {
    total: await countListingRows(db, filter),
    studyCode: await readStudyCode(db, studyId),
    today: todayInKorea(),
    itemKeys: itemColumns.map((column) => column.item.key),
    file:
      query.format === 'csv'
        ? csvDocument(columns, chunks(), language)
        : // A workbook is a zip built whole (the subject and query lists' writer); CSV streams.
          await xlsxWorkbook(columns, chunks(), language, { ko: '검토 목록', en: 'Review listing' }),
  };
}
