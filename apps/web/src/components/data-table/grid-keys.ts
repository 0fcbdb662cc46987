/**
 * Keyboard movement between a table's cells (the ARIA grid pattern's keys on a plain table, so the
 * table keeps its role and name): arrows move one cell, Home/End to the row's ends, Ctrl+Home/End to
 * the first and last cell, PageUp/PageDown by `pageRows`. Row 0 is the header row.
 */
export interface CellPosition {
  row: number;
  column: number;
}

export function nextCellPosition(
  key: string,
  ctrlKey: boolean,
  from: CellPosition,
  size: { rows: number; columns: number },
  pageRows = 10,
): CellPosition | null {
  const lastRow = size.rows - 1;
  const lastColumn = size.columns - 1;
  if (lastRow < 0 || lastColumn < 0) return null;
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  switch (key) {
    case 'ArrowRight':
      return { row: from.row, column: clamp(from.column + 1, lastColumn) };
    case 'ArrowLeft':
      return { row: from.row, column: clamp(from.column - 1, lastColumn) };
    case 'ArrowDown':
      return { row: clamp(from.row + 1, lastRow), column: from.column };
    case 'ArrowUp':
      return { row: clamp(from.row - 1, lastRow), column: from.column };
    case 'PageDown':
      return { row: clamp(from.row + pageRows, lastRow), column: from.column };
    case 'PageUp':
      return { row: clamp(from.row - pageRows, lastRow), column: from.column };
    case 'Home':
      return ctrlKey ? { row: 0, column: 0 } : { row: from.row, column: 0 };
    case 'End':
      return ctrlKey ? { row: lastRow, column: lastColumn } : { row: from.row, column: lastColumn };
    default:
      return null;
  }
}
