import type { BulkQueryTarget, ReviewRow, ReviewTable } from '@cdms/contract';

/**
 * What a bulk query is raised on: the cells picked one by one, and for each whole row picked, its
 * items among the columns shown. One target per item, each once, in the page's order.
 */

/** A cell's id in the selection: the row's form instance and group row, and the item. */
export function cellId(row: Pick<ReviewRow, 'formInstanceId' | 'row'>, itemKey: string): string {
  return `${row.formInstanceId}:${row.row ?? ''}:${itemKey}`;
}

/** A row's id in the selection (a repeating group's rows share their form instance). */
export function rowId(row: Pick<ReviewRow, 'formInstanceId' | 'row'>): string {
  return `${row.formInstanceId}:${row.row ?? ''}`;
}

/** The item's path in its form, as the queries take it: `item`, or `group[row].item`. */
export function itemPathOf(
  table: Pick<ReviewTable, 'groupKey'>,
  row: Pick<ReviewRow, 'row'>,
  itemKey: string,
): string {
  return table.groupKey === null || row.row === null ? itemKey : `${table.groupKey}[${row.row}].${itemKey}`;
}

export interface LabelledTarget extends BulkQueryTarget {
  /** Which cell, as the dialog lists it: subject, visit, row and item. */
  id: string;
  screeningNumber: string;
  visitKey: string;
  row: number | null;
  itemKey: string;
}

export function bulkTargets(
  table: Pick<ReviewTable, 'groupKey' | 'formKey'>,
  rows: readonly ReviewRow[],
  shownItemKeys: readonly string[],
  selectedCells: ReadonlySet<string>,
  selectedRows: ReadonlySet<string>,
): LabelledTarget[] {
  const targets: LabelledTarget[] = [];
  for (const row of rows) {
    const wholeRow = selectedRows.has(rowId(row));
    for (const itemKey of shownItemKeys) {
      const id = cellId(row, itemKey);
      if (!wholeRow && !selectedCells.has(id)) continue;
      targets.push({
        id,
        subjectPk: row.subjectPk,
        visitKey: row.visitKey,
        formKey: table.formKey,
        itemPath: itemPathOf(table, row, itemKey),
        screeningNumber: row.screeningNumber,
        row: row.row,
        itemKey,
      });
    }
  }
  return targets;
}
