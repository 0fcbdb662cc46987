import type { TableCell } from './table-cells.ts';
import type { FormTable } from './table-layout.ts';

/**
 * The codebook: what each column of each table means — one row per item with its labels in Korean
 * and English, its type, unit and codes ("1=…; 2=…"). The table headers carry only the item keys.
 */

export const CODEBOOK_NAME = 'codebook';

export const CODEBOOK_HEADER = ['table', 'item', 'label_ko', 'label_en', 'type', 'unit', 'codes'];

/** A masked export's codebook has one more column, saying which columns were left blank and why. */
export const CODEBOOK_MASKED_HEADER = [...CODEBOOK_HEADER, 'masked'];
export const MASKED_NOTE = 'personal data: values withheld / 개인정보: 값 제외';

export function codebookHeader(maskPersonalData: boolean): string[] {
  return maskPersonalData ? CODEBOOK_MASKED_HEADER : CODEBOOK_HEADER;
}

export function codebookRows(tables: readonly FormTable[], maskPersonalData = false): TableCell[][] {
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
      ...(maskPersonalData ? [column.masked ? MASKED_NOTE : null] : []),
    ]),
  );
}
