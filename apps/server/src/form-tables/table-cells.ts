import type { FormTableRow } from './load-form-table-pages.ts';
import type { FormTable, TableColumn } from './table-layout.ts';

/**
 * Stored values as table cells, the same for CSV and XLSX: numbers stay numbers; codes, dates
 * (YYYY-MM-DD), times (HH:MM) and texts stay the text they were stored as; a checkbox is true or
 * false; a multiple choice is its codes joined by ";" (codes of a code list hold no ";" in practice,
 * and the codebook lists them). With labels, a coded item's label follows it in its own column.
 */

export type TableCell = string | number | null;

/** Separates the codes of a multiple choice in one cell, and their labels. */
export const MULTIPLE_SEPARATOR = ';';

export function valueCell(value: unknown): TableCell {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) {
    const parts = value.map(valueCell).filter((part) => part !== null);
    return parts.length === 0 ? null : parts.join(MULTIPLE_SEPARATOR);
  }
  return JSON.stringify(value);
}

export function labelCell(column: TableColumn, value: unknown, language: 'ko' | 'en'): TableCell {
  if (value === null || value === undefined || value === '') return null;
  const labelOf = (code: unknown) =>
    column.codes?.find((candidate) => candidate.code === String(code))?.label[language] ?? String(code);
  if (Array.isArray(value))
    return value.length === 0 ? null : value.map(labelOf).join(`${MULTIPLE_SEPARATOR} `);
  return labelOf(value);
}

/** A row's cells in the order of `headerOf(table, labels !== null)`. */
export function rowCells(table: FormTable, row: FormTableRow, labels: 'ko' | 'en' | null): TableCell[] {
  const cells: TableCell[] = [row.subject, row.site, row.visit, row.repeat];
  for (const column of table.columns) {
    // A masked column's cells stay blank whatever was stored (a group's row holds all its cells).
    const value = column.masked ? null : row.values[column.item.key];
    cells.push(valueCell(value));
    if (labels !== null && column.codes) cells.push(labelCell(column, value, labels));
  }
  return cells;
}
