import type { ReviewRow } from '@cdms/contract';
import { resolveVisit, type StudyDefinition } from '@cdms/study';
import { labelCell, valueCell } from '../form-tables/table-cells.ts';
import type { FormTable, TableColumn } from '../form-tables/table-layout.ts';
import type { Language } from '../http/language.ts';
import { type ReviewListingSqlRow, reviewStateOf } from './review-listing-sql.ts';

/**
 * A listing's rows as the reader sees them, with form-tables/'s cells: a coded value as its label in
 * the reader's language (form-tables' `labelCell`), any other value as the export writes it.
 */

export function cellText(column: TableColumn, value: unknown, language: Language): string | null {
  const cell = column.codes ? labelCell(column, value, language) : valueCell(value);
  return cell === null ? null : String(cell);
}

const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export function reviewRowOf(
  definition: StudyDefinition,
  table: FormTable,
  row: ReviewListingSqlRow,
  plainValues: Record<string, unknown> | undefined,
  siteCodes: Map<number, string>,
  language: Language,
): ReviewRow {
  const values =
    table.groupKey === null
      ? (plainValues ?? {})
      : row.cell !== null && typeof row.cell === 'object'
        ? (row.cell as Record<string, unknown>)
        : {};
  const cells: Record<string, string | null> = {};
  for (const column of table.columns)
    cells[column.item.key] = cellText(column, values[column.item.key], language);
  const visit = resolveVisit(definition, row.visit_key);
  return {
    formInstanceId: row.form_instance_id,
    subjectPk: row.subject_id,
    screeningNumber: row.screening_number,
    siteId: row.site_id,
    siteCode: siteCodes.get(row.site_id) ?? String(row.site_id),
    visitKey: row.visit_key,
    visitLabel: visit?.label ?? { ko: row.visit_key, en: row.visit_key },
    row: row.ord === null ? null : Number(row.ord) - 1,
    formStatus: row.status,
    version: row.version,
    savedAt: isoOf(row.saved_at),
    review: reviewStateOf(row),
    reviewedAt: row.reviewed_at === null ? null : isoOf(row.reviewed_at),
    reviewedBy: row.reviewer,
    cells,
  };
}
