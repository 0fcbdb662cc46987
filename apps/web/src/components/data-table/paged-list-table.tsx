import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { ListDownloadButtons, PageSizeSelect, useListDownload } from '../list-page.tsx';
import { DataTable, type DataTableProps, tableLoadState, tablePager } from './data-table.tsx';

/** What a paged list's query gives the table (TanStack Query's result): its state and the total. */
interface PagedListQuery {
  isFetching: boolean;
  isPlaceholderData: boolean;
  error: Error | null;
  data: { total: number } | undefined;
  refetch: () => unknown;
}

export interface PagedListTableProps<Row extends RowData, SortKey extends string, Size extends number>
  extends Omit<DataTableProps<Row, SortKey>, 'busy' | 'error' | 'pager' | 'summary'> {
  /** The list's query: busy and load failure (`tableLoadState`), the pager from its total. */
  query: PagedListQuery;
  /** The title of the failure shown in place of the table when the first page could not load. */
  loadFailed: string;
  /** The row count left of the toolbar, in the page's words. */
  count: (total: number) => string;
  pageSize: Size;
  /** The rows-per-page choice in the toolbar; left out where the size is fixed. */
  pageSizeChoice?: { sizes: readonly Size[]; onChange: (size: Size) => void };
  /** The CSV and XLSX buttons in the toolbar, named in the page's words. */
  downloads?: { run: (format: 'csv' | 'xlsx') => Promise<void>; csvLabel: string; xlsxLabel: string };
  /** The page's own toolbar actions (bulk buttons), before the page size and the downloads. */
  actions?: ReactNode;
}

/**
 * A `DataTable` over one paged list from the server: the wiring every paged list page repeated —
 * busy and failure from the query, the row count, the pager (none while the total is stale), the
 * page-size choice and the downloads — said once.
 */
export function PagedListTable<
  Row extends RowData,
  SortKey extends string = string,
  Size extends number = number,
>({
  query,
  loadFailed,
  count,
  pageSize,
  pageSizeChoice,
  downloads,
  actions,
  ...table
}: PagedListTableProps<Row, SortKey, Size>) {
  return (
    <DataTable<Row, SortKey>
      {...table}
      {...tableLoadState(query, loadFailed)}
      summary={query.data ? count(query.data.total) : ''}
      actions={
        actions || pageSizeChoice || downloads ? (
          <>
            {actions}
            {pageSizeChoice ? (
              <PageSizeSelect<Size>
                sizes={pageSizeChoice.sizes}
                value={pageSize}
                onChange={pageSizeChoice.onChange}
              />
            ) : null}
            {downloads ? <Downloads {...downloads} /> : null}
          </>
        ) : undefined
      }
      pager={tablePager(query, pageSize)}
    />
  );
}

function Downloads({
  run,
  csvLabel,
  xlsxLabel,
}: NonNullable<PagedListTableProps<RowData, string, number>['downloads']>) {
  const { downloading, download } = useListDownload(run);
  return (
    <ListDownloadButtons
      downloading={downloading}
      onDownload={(format) => void download(format)}
      csvLabel={csvLabel}
      xlsxLabel={xlsxLabel}
    />
  );
}
