import type { SortOrder } from '@cdms/contract';
import {
  type CellData,
  type ColumnDef,
  type ColumnVisibilityState,
  columnVisibilityFeature,
  createSortedRowModel,
  type RowData,
  rowSortingFeature,
  type SortingState,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import {
  type FocusEvent,
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnsOutOfView, useColumnsOutOfView } from '../columns-out-of-view.tsx';
import listStyles from '../list-page.module.css';
import { ListLoadError, nextSort } from '../list-page.tsx';
import { Pagination, pageCount, usePageParam } from '../pagination.tsx';
import { useHiddenColumns } from './column-visibility.ts';
import { ColumnsMenu } from './columns-menu.tsx';
import styles from './data-table.module.css';
import { type CellPosition, nextCellPosition } from './grid-keys.ts';

/**
 * The one table of the app's lists (issue 17), on TanStack Table v9: column definitions and rows in,
 * an accessible table out — sortable headers (`aria-sort`, buttons), a columns menu remembered per
 * table, a header that stays in view, arrow-key movement between cells, the empty, loading and error
 * states, and the shared pager beneath. Pages keep their filters in `FilterPanel` and the URL.
 */

export interface DataTableColumn<Row extends RowData, SortKey extends string = string> {
  /** Stable id: the key of the stored column choice and of client sorting. */
  id: string;
  /** The column's name in the reader's language (the header, and its entry in the columns menu). */
  header: string;
  /** Drawn in the header cell instead of `header` (a select-all checkbox). */
  headerContent?: ReactNode;
  /** The cell's content; `index` is the row's place on the page (from 0). */
  cell: (row: Row, index: number) => ReactNode;
  numeric?: boolean;
  /** Server sorting: the sort key this column's header asks for. */
  sortKey?: SortKey;
  /** Client sorting: the value rows are ordered by. */
  sortValue?: (row: Row) => string | number;
  /** False for the column that names the row (it cannot be hidden). Default true. */
  hideable?: boolean;
  /** The cells may break between words when the table is short of room (with `fit`). */
  wrap?: boolean;
  /** Extra class of the body cells (widths). */
  className?: string;
  /** Extra class of the header cell (widths). */
  headerClassName?: string;
  /** The column's cells name their row (`<th scope="row">`): the site of a per-site table. */
  rowHeader?: boolean;
}

/**
 * A column that shows one value of the row (a text, a count) and sorts by it (a list sorted in the
 * browser); `options` are the column's other settings.
 */
export function sortedValueColumn<Row extends RowData>(
  id: string,
  header: string,
  value: (row: Row) => string | number,
  options: Omit<DataTableColumn<Row>, 'id' | 'header' | 'cell' | 'sortValue'> = {},
): DataTableColumn<Row> {
  return { id, header, ...options, sortValue: value, cell: value };
}

/**
 * Server sorting (our paged lists: the sort lives in the URL and the server sorts in SQL), or client
 * sorting of a small list loaded whole (admin lists).
 */
export type DataTableSorting<SortKey extends string> =
  | { mode: 'server'; sort: SortKey; order: SortOrder; onSort: (sort: SortKey) => void }
  | { mode: 'client'; initial?: { column: string; order: SortOrder } };

export interface DataTableProps<Row extends RowData, SortKey extends string = string> {
  /** Names the table for the stored column choice (`cdms.table.<id>.hidden`). */
  id: string;
  /** The accessible name of the table and of its scrolling frame. */
  label: string;
  columns: readonly DataTableColumn<Row, SortKey>[];
  /** The rows to show; `undefined` while the first load runs. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  sorting?: DataTableSorting<SortKey>;
  /** A refresh is running (the previous rows stay on screen). */
  busy?: boolean;
  /** Shown instead of the table when the rows could not be loaded. */
  error?: { title: string; detail: string; onRetry: () => void } | null;
  emptyMessage?: string;
  /** While the first load runs; the shared "Loading…" unless the page says more. */
  loadingMessage?: string;
  /** Left of the toolbar above the table (the row count). */
  summary?: ReactNode;
  /** Right of the toolbar, before the columns menu (page size, downloads). */
  actions?: ReactNode;
  /** Clicking a row (outside its links and buttons), and Enter on a cell without either. */
  onRowClick?: (row: Row) => void;
  rowClassName?: (row: Row) => string | undefined;
  /** `data-*` attributes of a row (tests and styles find rows by them). */
  rowAttributes?: (row: Row) => Record<`data-${string}`, string | undefined>;
  /**
   * The table fits its frame and its `wrap` columns break, for a list with long text (notices, alarms);
   * by default the table is as wide as its unwrapped cells and scrolls sideways.
   */
  fit?: boolean;
  /**
   * The shared pager beneath; leave out while the total is not known (or stale). With `client`, the
   * rows are the whole list and the table shows the URL's page of them after sorting (admin lists).
   */
  pager?: { total: number; pageSize: number; param?: string; client?: boolean } | null;
  /**
   * Rows after the list (totals) in `<tfoot>`, drawn by the same columns, never sorted or paged; the
   * first visible cell of each names its row.
   */
  footerRows?: readonly Row[];
  /**
   * A row unfolded: its detail in one full-width row beneath it, with `id` for the `aria-controls` of
   * the row's own toggle button (which says `aria-expanded`); `null` for a folded row.
   */
  expandedRow?: (row: Row) => { id: string; content: ReactNode } | null;
}

/** What `tableLoadState` reads of a list's query (TanStack Query's result). */
interface ListQuery {
  isFetching: boolean;
  error: Error | null;
  data: unknown;
  refetch: () => unknown;
}

/**
 * The table's `busy` and `error` from the list's query, the same way on every page: busy while a
 * refresh runs (the previous rows stay), the failure shown with a retry only when no rows are left.
 */
export function tableLoadState(
  query: ListQuery,
  title: string,
): { busy: boolean; error: DataTableProps<RowData>['error'] } {
  return {
    busy: query.isFetching,
    error:
      query.error && query.data === undefined
        ? { title, detail: query.error.message, onRetry: () => void query.refetch() }
        : null,
  };
}

/**
 * The table's pager from the list's query: none until a total is known, and none while the previous
 * filter's rows stand in (placeholder data) — the pager would correct the page from a stale total.
 */
export function tablePager(
  query: { data: { total: number } | undefined; isPlaceholderData: boolean },
  pageSize: number,
): DataTableProps<RowData>['pager'] {
  return query.data && !query.isPlaceholderData ? { total: query.data.total, pageSize } : null;
}

const features = tableFeatures({
  columnVisibilityFeature,
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
});

type Features = typeof features;

const INTERACTIVE = 'a[href], button:not([disabled]), input, select, textarea, [role="menuitem"]';

export function DataTable<Row extends RowData, SortKey extends string = string>({
  id,
  label,
  columns,
  rows,
  rowKey,
  sorting,
  busy = false,
  error = null,
  emptyMessage,
  loadingMessage,
  summary,
  actions,
  onRowClick,
  rowClassName,
  rowAttributes,
  fit = false,
  pager = null,
  footerRows = NO_ROWS,
  expandedRow,
}: DataTableProps<Row, SortKey>) {
  const { t } = useTranslation('ui');
  const [hidden, setHidden] = useHiddenColumns(id);
  const clientSorting = sorting?.mode === 'client';
  const [clientSort, setClientSort] = useState<SortingState>(() =>
    sorting?.mode === 'client' && sorting.initial
      ? [{ id: sorting.initial.column, desc: sorting.initial.order === 'desc' }]
      : [],
  );

  const columnDefs = useMemo(
    () =>
      columns.map(
        (column): ColumnDef<Features, Row, CellData> => ({
          id: column.id,
          header: column.header,
          accessorFn: (row: Row) => (column.sortValue ? column.sortValue(row) : ''),
          enableHiding: column.hideable ?? true,
          enableSorting: clientSorting ? column.sortValue !== undefined : column.sortKey !== undefined,
          sortFn: 'alphanumeric',
        }),
      ),
    [columns, clientSorting],
  );
  const byId = useMemo(() => new Map(columns.map((column) => [column.id, column])), [columns]);

  // Server sorting names a sort key; the table's state names the column that asks for it.
  const serverSort: SortingState = useMemo(() => {
    if (sorting?.mode !== 'server') return [];
    const column = columns.find((candidate) => candidate.sortKey === sorting.sort);
    return column ? [{ id: column.id, desc: sorting.order === 'desc' }] : [];
  }, [columns, sorting]);

  const columnVisibility: ColumnVisibilityState = useMemo(
    () =>
      Object.fromEntries(
        hidden.filter((columnId) => byId.has(columnId)).map((columnId) => [columnId, false]),
      ),
    [hidden, byId],
  );

  const data = rows ?? NO_ROWS;
  const table = useTable<Features, Row>({
    features,
    columns: columnDefs,
    data: data as Row[],
    getRowId: (row: Row) => rowKey(row),
    manualSorting: !clientSorting,
    enableSortingRemoval: false,
    enableMultiSort: false,
    state: { sorting: clientSorting ? clientSort : serverSort, columnVisibility },
    onSortingChange: (updater) => {
      setClientSort((current) => (typeof updater === 'function' ? updater(current) : updater));
    },
    onColumnVisibilityChange: (updater) => {
      const next = typeof updater === 'function' ? updater(columnVisibility) : updater;
      setHidden(
        Object.entries(next)
          .filter(([, visible]) => !visible)
          .map(([columnId]) => columnId),
      );
    },
  });

  const visibleColumns = table.getVisibleLeafColumns();
  const [pageParam] = usePageParam(pager?.param);
  const sortedRows = table.getRowModel().rows;
  const bodyRows = pager?.client
    ? sortedRows.slice(...clientPageBounds(pageParam, sortedRows.length, pager.pageSize))
    : sortedRows;

  function sortBy(columnId: string) {
    const column = byId.get(columnId);
    if (!column || !sorting) return;
    if (sorting.mode === 'server') {
      if (column.sortKey !== undefined) sorting.onSort(column.sortKey);
      return;
    }
    const current = clientSort[0];
    const next = nextSort({ sort: current?.id ?? '', order: current?.desc ? 'desc' : 'asc' }, columnId);
    setClientSort([{ id: next.sort, desc: next.order === 'desc' }]);
  }

  // Roving tabindex: one cell of the table is in the tab order; arrows move it (row 0 = header).
  const tableRef = useRef<HTMLTableElement>(null);
  const [active, setActive] = useState<CellPosition>({ row: 0, column: 0 });
  const footer = rows === undefined ? NO_ROWS : footerRows;
  const gridRows = 1 + bodyRows.length + footer.length;
  const activeCell = {
    row: Math.min(active.row, gridRows - 1),
    column: Math.min(active.column, Math.max(visibleColumns.length - 1, 0)),
  };

  function cellAt(position: CellPosition): HTMLElement | null {
    return (
      tableRef.current?.querySelector<HTMLElement>(
        `[data-cell-row="${position.row}"][data-cell-column="${position.column}"]`,
      ) ?? null
    );
  }

  function positionOf(element: Element | null): { cell: HTMLElement; position: CellPosition } | null {
    const cell = element?.closest<HTMLElement>('[data-cell-row]');
    if (!cell || !tableRef.current?.contains(cell)) return null;
    return {
      cell,
      position: { row: Number(cell.dataset.cellRow), column: Number(cell.dataset.cellColumn) },
    };
  }

  function onKeyDown(event: KeyboardEvent<HTMLTableElement>) {
    const target = event.target as HTMLElement;
    const found = positionOf(target);
    if (!found) return;
    // Fields inside a cell keep their own keys; links and buttons hand arrows to the table.
    if (target.matches('input, select, textarea')) return;
    if (event.key === 'Enter' && target === found.cell) {
      const control = found.cell.querySelector<HTMLElement>(INTERACTIVE);
      // A menu's trigger (Radix opens on its own keys, not on click) gets the focus; the rest are clicked.
      if (control?.hasAttribute('aria-haspopup')) control.focus();
      else if (control) control.click();
      else if (onRowClick && found.position.row > 0) {
        const row = bodyRows[found.position.row - 1];
        if (row) onRowClick(row.original);
      } else return;
      event.preventDefault();
      return;
    }
    const next = nextCellPosition(event.key, event.ctrlKey || event.metaKey, found.position, {
      rows: gridRows,
      columns: visibleColumns.length,
    });
    if (!next) return;
    event.preventDefault();
    setActive(next);
    cellAt(next)?.focus();
  }

  function onFocus(event: FocusEvent<HTMLTableElement>) {
    const found = positionOf(event.target);
    if (found) setActive(found.position);
  }

  function onRowClickEvent(event: MouseEvent<HTMLTableRowElement>, row: Row) {
    if (!onRowClick) return;
    if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
    onRowClick(row);
  }

  const tabIndexOf = (row: number, column: number) =>
    row === activeCell.row && column === activeCell.column ? 0 : -1;

  const hideable = table
    .getAllLeafColumns()
    .filter((column) => column.getCanHide())
    .map((column) => ({
      id: column.id,
      label: byId.get(column.id)?.header ?? column.id,
      visible: column.getIsVisible(),
      toggle: (visible: boolean) => column.toggleVisibility(visible),
    }));

  /** One row's cells; a row header cell (`rowHeader`, a footer's first) is a `<th scope="row">`. */
  function cells(row: Row, rowIndex: number, gridRow: number, cellsOf: readonly string[], footerRow = false) {
    return cellsOf.map((columnId, columnIndex) => {
      const column = byId.get(columnId);
      const classes = [
        column?.numeric ? listStyles.numeric : '',
        column?.wrap ? styles.wrap : '',
        column?.className ?? '',
      ]
        .filter(Boolean)
        .join(' ');
      const Cell = column?.rowHeader || (footerRow && columnIndex === 0) ? 'th' : 'td';
      return (
        <Cell
          key={columnId}
          scope={Cell === 'th' ? 'row' : undefined}
          className={classes || undefined}
          data-cell-row={gridRow}
          data-cell-column={columnIndex}
          tabIndex={tabIndexOf(gridRow, columnIndex)}
        >
          {column?.cell(row, rowIndex)}
        </Cell>
      );
    });
  }

  const frameRef = useRef<HTMLElement>(null);
  const outOfView = useColumnsOutOfView(frameRef);
  const visibleIds = visibleColumns.map((column) => column.id);
  const hasToolbar = summary !== undefined || actions !== undefined || hideable.length > 0;

  return (
    <>
      {hasToolbar ? (
        <div className={listStyles.toolbar}>
          {summary !== undefined ? (
            <div className={listStyles.total} aria-live="polite">
              {summary}
            </div>
          ) : (
            <span />
          )}
          <div className={listStyles.toolbarActions}>
            {actions}
            {hideable.length > 0 ? (
              <ColumnsMenu
                columns={hideable}
                lastVisible={visibleColumns.length <= 1}
                onShowAll={() => table.setColumnVisibility({})}
              />
            ) : null}
          </div>
        </div>
      ) : null}
      {error && !rows ? null : <ColumnsOutOfView left={outOfView.left} right={outOfView.right} />}
      {error && !rows ? (
        <ListLoadError
          title={error.title}
          detail={error.detail}
          retryLabel={t('table.retry')}
          onRetry={error.onRetry}
        />
      ) : (
        // The frame scrolls sideways when the columns do not fit: a fade on the side where columns lie
        // beyond the edge and a count above say so (issue 43 item 8: at 1000 px a list's last columns
        // simply ended at the frame's edge, at 1440 px one was cut through, as if there were no more).
        <div
          className={styles.frameOuter}
          data-columns-left={outOfView.left || undefined}
          data-columns-right={outOfView.right || undefined}
        >
          <section
            ref={frameRef}
            className={`${listStyles.tableWrap} ${styles.frame}`}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling frame must be reachable by keyboard to scroll it
            tabIndex={0}
            aria-label={label}
          >
            <table
              ref={tableRef}
              className={`${listStyles.table} ${styles.table} ${fit ? styles.fit : ''}`}
              aria-busy={busy || rows === undefined}
              onKeyDown={onKeyDown}
              onFocus={onFocus}
            >
              <caption className={listStyles.visuallyHidden}>
                {label} · {t('list.scrollHint')} {t('table.keyboardHint')}
              </caption>
              <thead>
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header, columnIndex) => {
                      const column = byId.get(header.column.id);
                      const sorted = header.column.getIsSorted();
                      const canSort = header.column.getCanSort() && sorting !== undefined;
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          className={
                            [column?.numeric ? listStyles.numeric : '', column?.headerClassName ?? '']
                              .filter(Boolean)
                              .join(' ') || undefined
                          }
                          aria-sort={
                            canSort && sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined
                          }
                          data-cell-row={0}
                          data-cell-column={columnIndex}
                          tabIndex={tabIndexOf(0, columnIndex)}
                        >
                          {canSort ? (
                            <button
                              type="button"
                              className={listStyles.sortButton}
                              data-active={sorted ? true : undefined}
                              title={t('list.sortBy', { column: column?.header ?? '' })}
                              onClick={() => sortBy(header.column.id)}
                            >
                              {column?.header}
                              <span aria-hidden="true" className={listStyles.sortMark}>
                                {sorted ? (sorted === 'asc' ? '▲' : '▼') : '↕'}
                              </span>
                            </button>
                          ) : (
                            (column?.headerContent ?? column?.header)
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {rows === undefined ? (
                  <tr>
                    <td colSpan={visibleColumns.length} className={listStyles.empty} role="status">
                      {loadingMessage ?? t('table.loading')}
                    </td>
                  </tr>
                ) : bodyRows.length === 0 ? (
                  <tr>
                    <td colSpan={visibleColumns.length} className={listStyles.empty}>
                      {emptyMessage ?? t('table.empty')}
                    </td>
                  </tr>
                ) : (
                  bodyRows.map((row, rowIndex) => {
                    const expanded = expandedRow?.(row.original) ?? null;
                    return (
                      <Fragment key={row.id}>
                        <tr
                          {...rowAttributes?.(row.original)}
                          className={
                            [onRowClick ? styles.clickable : '', rowClassName?.(row.original) ?? '']
                              .filter(Boolean)
                              .join(' ') || undefined
                          }
                          onClick={onRowClick ? (event) => onRowClickEvent(event, row.original) : undefined}
                        >
                          {cells(row.original, rowIndex, rowIndex + 1, visibleIds)}
                        </tr>
                        {expanded ? (
                          <tr className={styles.detailRow}>
                            <td colSpan={visibleColumns.length} id={expanded.id}>
                              {expanded.content}
                            </td>
                          </tr>
                        ) : null}
                      </Fragment>
                    );
                  })
                )}
              </tbody>
              {footer.length > 0 ? (
                <tfoot>
                  {footer.map((row, footerIndex) => (
                    <tr
                      key={rowKey(row)}
                      {...rowAttributes?.(row)}
                      className={rowClassName?.(row) || undefined}
                    >
                      {cells(row, footerIndex, 1 + bodyRows.length + footerIndex, visibleIds, true)}
                    </tr>
                  ))}
                </tfoot>
              ) : null}
            </table>
          </section>
        </div>
      )}
      {pager ? <Pagination total={pager.total} pageSize={pager.pageSize} param={pager.param} /> : null}
    </>
  );
}

const NO_ROWS: readonly never[] = [];

/** The slice of a whole list on the URL's page; a page past the end shows the last (the pager corrects the URL). */
function clientPageBounds(page: number, total: number, pageSize: number): [number, number] {
  const current = Math.min(page, Math.max(1, pageCount(total, pageSize)));
  return [(current - 1) * pageSize, current * pageSize];
}
