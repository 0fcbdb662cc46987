import type { RowData } from '@tanstack/react-table';
import type { DataTableColumn } from './data-table.tsx';

/**
 * The checkbox column of a list whose rows are picked for a bulk action (the query list, the
 * readiness board): a box in the header that picks or drops every row of the page, one box a row.
 */
export function selectColumn<Row extends RowData, SortKey extends string>({
  pageRows,
  isSelected,
  onSelect,
  onSelectAll,
  selectAllLabel,
  selectRowLabel,
  className,
}: {
  pageRows: readonly Row[];
  isSelected: (row: Row) => boolean;
  onSelect: (row: Row, on: boolean) => void;
  onSelectAll: (on: boolean) => void;
  selectAllLabel: string;
  selectRowLabel: (row: Row) => string;
  /** The class of the column's header and body cells (their width). */
  className?: string;
}): DataTableColumn<Row, SortKey> {
  return {
    id: 'select',
    header: selectAllLabel,
    hideable: false,
    className,
    headerClassName: className,
    headerContent: (
      <input
        type="checkbox"
        aria-label={selectAllLabel}
        checked={pageRows.length > 0 && pageRows.every(isSelected)}
        disabled={pageRows.length === 0}
        onChange={(event) => onSelectAll(event.target.checked)}
      />
    ),
    cell: (row) => (
      <input
        type="checkbox"
        aria-label={selectRowLabel(row)}
        checked={isSelected(row)}
        onChange={(event) => onSelect(row, event.target.checked)}
      />
    ),
  };
}
