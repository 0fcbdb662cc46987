import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { hiddenColumnsKey } from './column-visibility.ts';
import { DataTable, type DataTableColumn, type DataTableProps, tableLoadState } from './data-table.tsx';
import { nextCellPosition } from './grid-keys.ts';

interface Person {
  id: number;
  name: string;
  age: number;
}

const people: Person[] = [
  { id: 1, name: 'Kim', age: 41 },
  { id: 2, name: 'Ahn', age: 29 },
  { id: 3, name: 'Park', age: 35 },
];

type SortKey = 'name' | 'age';

const columns: DataTableColumn<Person, SortKey>[] = [
  {
    id: 'name',
    header: 'Name',
    hideable: false,
    sortKey: 'name',
    sortValue: (person) => person.name,
    cell: (person) => <a href={`/people/${person.id}`}>{person.name}</a>,
  },
  { id: 'age', header: 'Age', numeric: true, sortKey: 'age', sortValue: (p) => p.age, cell: (p) => p.age },
  { id: 'note', header: 'Note', cell: (p) => `note ${p.id}` },
];

function renderTable(props: Partial<DataTableProps<Person, SortKey>> = {}) {
  const element = (
    <DataTable<Person, SortKey>
      id="people"
      label="People"
      columns={columns}
      rows={people}
      rowKey={(person) => String(person.id)}
      {...props}
    />
  );
  // The pager reads the URL, so the table lives inside a router as it does in the app.
  const router = createMemoryRouter([{ path: '/', element }], { initialEntries: ['/'] });
  return render(<RouterProvider router={router} />);
}

/** The body's cell texts of one column, top to bottom. */
function columnTexts(columnIndex: number): string[] {
  const rows = within(screen.getByRole('table', { name: /People/ }))
    .getAllByRole('row')
    .slice(1);
  return rows.map((row) => within(row).getAllByRole('cell')[columnIndex]?.textContent ?? '');
}

beforeEach(async () => {
  window.localStorage.clear();
  await act(() => i18n.changeLanguage('en'));
});
afterEach(cleanup);

describe('tableLoadState', () => {
  it('is busy while fetching and shows a failure with a retry only when no rows are left', () => {
    const refetch = vi.fn();
    const failed = { isFetching: false, error: new Error('서버 오류'), data: undefined, refetch };
    const state = tableLoadState(failed, '불러오지 못했습니다');
    expect(state.busy).toBe(false);
    expect(state.error).toMatchObject({ title: '불러오지 못했습니다', detail: '서버 오류' });
    state.error?.onRetry();
    expect(refetch).toHaveBeenCalledTimes(1);
    // A failed refresh keeps the rows on screen: no error in their place.
    expect(tableLoadState({ ...failed, data: { rows: [] } }, 'x').error).toBeNull();
    expect(tableLoadState({ isFetching: true, error: null, data: undefined, refetch }, 'x')).toEqual({
      busy: true,
      error: null,
    });
  });
});

describe('DataTable sorting', () => {
  it('server sorting: a header button asks for its sort key and the active column carries aria-sort', () => {
    const onSort = vi.fn();
    renderTable({ sorting: { mode: 'server', sort: 'age', order: 'desc', onSort } });
    const age = screen.getByRole('columnheader', { name: /Age/ });
    expect(age.getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBeNull();
    // The server sorts: the rows stay in the order they came.
    expect(columnTexts(0)).toEqual(['Kim', 'Ahn', 'Park']);

    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSort).toHaveBeenCalledWith('name');
    fireEvent.click(within(age).getByRole('button'));
    expect(onSort).toHaveBeenLastCalledWith('age');
    // A column without a sort key has no button.
    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).toBeNull();
  });

  it('client sorting: a header orders the loaded rows, a second click reverses them', () => {
    renderTable({ sorting: { mode: 'client' } });
    fireEvent.click(screen.getByRole('button', { name: /Age/ }));
    expect(columnTexts(1)).toEqual(['29', '35', '41']);
    expect(screen.getByRole('columnheader', { name: /Age/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: /Age/ }));
    expect(columnTexts(1)).toEqual(['41', '35', '29']);
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(columnTexts(0)).toEqual(['Ahn', 'Kim', 'Park']);
    expect(screen.getByRole('columnheader', { name: /Age/ }).getAttribute('aria-sort')).toBeNull();
  });
});

describe('DataTable client paging', () => {
  it('sorts the whole list before showing the page of it', () => {
    renderTable({ sorting: { mode: 'client' }, pager: { total: people.length, pageSize: 2, client: true } });
    expect(columnTexts(0)).toEqual(['Kim', 'Ahn']);
    fireEvent.click(screen.getByRole('button', { name: /Age/ }));
    expect(columnTexts(1)).toEqual(['29', '35']);
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(columnTexts(1)).toEqual(['41']);
  });
});

describe('DataTable column visibility', () => {
  it('hides a column from the columns menu, remembers it per table, and shows all again', async () => {
    renderTable();
    fireEvent.click(screen.getByRole('button', { name: /^Columns/ }));
    const menu = await screen.findByRole('group', { name: 'Columns to show' });
    // The column that names the row cannot be hidden, so it is not offered.
    expect(within(menu).queryByRole('checkbox', { name: 'Name' })).toBeNull();
    fireEvent.click(within(menu).getByRole('checkbox', { name: 'Age' }));
    expect(screen.queryByRole('columnheader', { name: /Age/ })).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(hiddenColumnsKey('people')) ?? '[]')).toEqual(['age']);
    expect(screen.getByRole('button', { name: /Columns \(1 hidden\)/ })).toBeTruthy();

    // A new visit reads the stored choice.
    cleanup();
    renderTable();
    expect(screen.queryByRole('columnheader', { name: /Age/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Note' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /^Columns/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show all columns' }));
    expect(screen.getByRole('columnheader', { name: /Age/ })).toBeTruthy();
    expect(window.localStorage.getItem(hiddenColumnsKey('people'))).toBeNull();
  });

  it('ignores a stored value it cannot read', () => {
    window.localStorage.setItem(hiddenColumnsKey('people'), '{not json');
    renderTable();
    expect(screen.getAllByRole('columnheader')).toHaveLength(3);
  });
});

describe('DataTable keyboard', () => {
  it('keeps one cell in the tab order and moves it with the arrow keys, Home and End', () => {
    renderTable();
    const table = screen.getByRole('table', { name: /People/ });
    const focusable = table.querySelectorAll('[data-cell-row][tabindex="0"]');
    expect(focusable).toHaveLength(1);
    const header = screen.getByRole('columnheader', { name: 'Name' });
    act(() => header.focus());
    fireEvent.keyDown(header, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Kim');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(document.activeElement?.textContent).toBe('41');
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('note 1');
    fireEvent.keyDown(document.activeElement as Element, { key: 'End', ctrlKey: true });
    expect(document.activeElement?.textContent).toBe('note 3');
    // The focused cell is now the one Tab comes back to.
    expect(table.querySelectorAll('[data-cell-row][tabindex="0"]')).toHaveLength(1);
    expect(document.activeElement?.getAttribute('tabindex')).toBe('0');
  });

  it('Enter on a cell activates its link; on a cell without one it opens the row', () => {
    const onRowClick = vi.fn();
    renderTable({ onRowClick });
    const link = screen.getByRole('link', { name: 'Ahn' });
    const clicked = vi.fn((event: Event) => event.preventDefault());
    link.addEventListener('click', clicked);
    const nameCell = link.closest('td') as HTMLElement;
    act(() => nameCell.focus());
    fireEvent.keyDown(nameCell, { key: 'Enter' });
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(onRowClick).not.toHaveBeenCalled();

    const noteCell = screen.getByRole('cell', { name: 'note 3' });
    act(() => noteCell.focus());
    fireEvent.keyDown(noteCell, { key: 'Enter' });
    expect(onRowClick).toHaveBeenCalledWith(people[2]);

    fireEvent.click(screen.getByRole('cell', { name: '35' }));
    expect(onRowClick).toHaveBeenLastCalledWith(people[2]);
  });

  it('Enter on a cell with a menu button moves the focus to it rather than clicking it', () => {
    const opened = vi.fn();
    renderTable({
      columns: [
        ...columns,
        {
          id: 'menu',
          header: 'More',
          cell: (person) => (
            <button type="button" aria-haspopup="menu" onClick={opened}>
              More for {person.name}
            </button>
          ),
        },
      ],
    });
    const cell = screen.getByRole('button', { name: 'More for Kim' }).closest('td') as HTMLElement;
    act(() => cell.focus());
    fireEvent.keyDown(cell, { key: 'Enter' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'More for Kim' }));
    expect(opened).not.toHaveBeenCalled();
  });

  it('nextCellPosition stays inside the grid', () => {
    const size = { rows: 4, columns: 3 };
    expect(nextCellPosition('ArrowUp', false, { row: 0, column: 1 }, size)).toEqual({ row: 0, column: 1 });
    expect(nextCellPosition('ArrowRight', false, { row: 2, column: 2 }, size)).toEqual({ row: 2, column: 2 });
    expect(nextCellPosition('PageDown', false, { row: 1, column: 0 }, size)).toEqual({ row: 3, column: 0 });
    expect(nextCellPosition('Home', true, { row: 3, column: 2 }, size)).toEqual({ row: 0, column: 0 });
    expect(nextCellPosition('a', false, { row: 0, column: 0 }, size)).toBeNull();
  });
});

describe('DataTable row headers, totals and unfolded rows', () => {
  it('draws a rowHeader column as row headers and footer rows in tfoot, outside sorting and paging', () => {
    const total: Person = { id: 0, name: 'Total', age: people.reduce((sum, person) => sum + person.age, 0) };
    renderTable({
      columns: columns.map((column) => (column.id === 'name' ? { ...column, rowHeader: true } : column)),
      sorting: { mode: 'client', initial: { column: 'age', order: 'desc' } },
      footerRows: [total],
      pager: { total: people.length, pageSize: 2, client: true },
    });
    const table = screen.getByRole('table', { name: /People/ });
    const rowHeaders = within(table).getAllByRole('rowheader');
    // The page of the sorted rows (oldest first, two a page), then the total that is on every page.
    const oldestTwo = [...people].sort((a, b) => b.age - a.age).slice(0, 2);
    expect(rowHeaders.map((cell) => cell.textContent)).toEqual([...oldestTwo.map((p) => p.name), 'Total']);
    const footer = table.querySelector('tfoot') as HTMLElement;
    expect(within(footer).getByRole('rowheader').textContent).toBe('Total');
    expect(within(footer).getAllByRole('cell')[0]?.textContent).toBe(String(total.age));
    // Sorting again leaves the total where it is.
    fireEvent.click(screen.getByRole('button', { name: /Age/ }));
    expect(within(table).getAllByRole('rowheader').at(-1)?.textContent).toBe('Total');
  });

  it('keyboard movement reaches the footer row after the last body row', () => {
    renderTable({ footerRows: [{ id: 0, name: 'Total', age: 0 }] });
    const last = screen.getByRole('link', { name: 'Park' }).closest('td') as HTMLElement;
    act(() => last.focus());
    fireEvent.keyDown(last, { key: 'ArrowDown' });
    expect(document.activeElement?.closest('tfoot')).not.toBeNull();
    expect(document.activeElement?.textContent).toBe('Total');
  });

  it('shows an unfolded row beneath its row, across every column, with the id its toggle controls', () => {
    renderTable({
      expandedRow: (person) =>
        person.id === 2 ? { id: 'detail-2', content: <p>Visits of {person.name}</p> } : null,
    });
    const detail = document.getElementById('detail-2') as HTMLElement;
    expect(detail.textContent).toBe('Visits of Ahn');
    expect(detail.getAttribute('colspan')).toBe(String(columns.length));
    const rows = within(screen.getByRole('table', { name: /People/ })).getAllByRole('row');
    const ahn = rows.findIndex((row) => within(row).queryByRole('link', { name: 'Ahn' }));
    expect(rows[ahn + 1]?.contains(detail)).toBe(true);
    // Only the unfolded row has one: header, three rows, one detail.
    expect(rows).toHaveLength(1 + people.length + 1);
  });

  it('leaves out the toolbar when it would be empty', () => {
    renderTable({ columns: columns.map((column) => ({ ...column, hideable: false })) });
    expect(screen.queryByRole('button', { name: /Columns/ })).toBeNull();
    expect(document.querySelector('[aria-live]')).toBeNull();
  });
});

describe('DataTable states', () => {
  it('says it is loading, says when there are no rows, and shows a load failure with a retry', () => {
    const { unmount } = renderTable({ rows: undefined });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    unmount();
    renderTable({ rows: [], emptyMessage: 'Nobody here.' });
    expect(screen.getByRole('cell', { name: 'Nobody here.' })).toBeTruthy();
    cleanup();
    const onRetry = vi.fn();
    renderTable({ rows: undefined, error: { title: 'Could not load', detail: 'boom', onRetry } });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Could not load');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('speaks Korean by default', async () => {
    await act(() => i18n.changeLanguage('ko'));
    renderTable({ rows: [] });
    expect(screen.getByRole('cell', { name: '데이터가 없습니다.' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /표시할 열/ })).toBeTruthy();
  });
});
