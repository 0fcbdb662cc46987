import type { TableCell } from './table-cells.ts';
import type { FormTable } from './table-layout.ts';

/**
 * The codebook: what each column of each table means — one row per item with its labels in Korean
 * and English, its type, unit and codes ("1=…; 2=…"). The table headers carry only the item keys.
 */

export const CODEBOOK_NAME = 'codebook';

export const CODEBOOK_HEADER = ['table', 'item', 'label_ko', 'label_en', 'type', 'unit', 'codes'];

export function codebookRows(tables: readonly FormTable[]): TableCell[][] {
  return tables.flatMap((table) =>
    table.columns.map((column) => [
      table.name,
      column.item.key,
      column.item.label.ko,
      column.item.label.en,
      column.item.type,
      column.item.unit ?? null,
      column.codes
        ? column.codes.map((code) => `${code.code}=${code.label.ko} / ${code.label.en}`).join('; ')
        : null,
    ]),
  );
}
