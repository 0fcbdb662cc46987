import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import '../i18n/i18n.ts';
import { i18n } from '../i18n/i18n.ts';
import { Pagination, pageCount, pageWindow, parsePageParam } from './pagination.tsx';

afterEach(cleanup);

describe('pageCount', () => {
  it('rounds up and is 0 without rows', () => {
    expect(pageCount(0, 10)).toBe(0);
    expect(pageCount(1, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(100, 20)).toBe(5);
    expect(pageCount(10, 0)).toBe(0);
  });
});

describe('parsePageParam', () => {
  it('reads whole numbers from 1 and falls back to 1 otherwise', () => {
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam('3')).toBe(3);
    for (const raw of ['', '0', '-2', '2.5', 'abc', '1e3', ' 2', '99999999999999999999']) {
      expect(parsePageParam(raw), raw).toBe(1);
    }
  });
});

describe('pageWindow', () => {
  it('centres five pages on the current one', () => {
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shifts the window at the start and at the end instead of shrinking it', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(9, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
  });

  it('shows every page when there are five or fewer', () => {
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('clamps a current page outside the range', () => {
    expect(pageWindow(50, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(-3, 10)).toEqual([1, 2, 3, 4, 5]);
  });
});

/** Renders the pager at `url` and reports the router's search string. */
function renderAt(url: string, total: number, pageSize = 10) {
  const router = createMemoryRouter(
    [{ path: '/list', element: <Pagination total={total} pageSize={pageSize} /> }],
    {
      initialEntries: [url],
    },
  );
  render(<RouterProvider router={router} />);
  return () => router.state.location.search;
}

describe('<Pagination>', () => {
  it('is hidden with one page or none', () => {
    renderAt('/list', 0);
    expect(screen.queryByRole('navigation')).toBeNull();
    cleanup();
    renderAt('/list', 10);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('disables first and previous on page 1, next and last on the last page', async () => {
    await act(() => i18n.changeLanguage('en'));
    const search = renderAt('/list?size=10', 95);
    expect(screen.getByRole('button', { name: 'First page' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');

    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(search()).toBe('?size=10&page=10');
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Last page' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'First page' })).toHaveProperty('disabled', false);
    expect(screen.getAllByRole('button', { name: /^Page \d+$/ }).map((button) => button.textContent)).toEqual(
      ['6', '7', '8', '9', '10'],
    );

    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(search()).toBe('?size=10&page=9');
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    // Page 1 has no parameter: one address per page; the other parameters stay.
    expect(search()).toBe('?size=10');
  });

  it('replaces a page beyond the last one with the last page', async () => {
    const search = renderAt('/list?page=42', 35);
    await act(async () => {});
    expect(search()).toBe('?page=4');
    expect(screen.getByRole('button', { current: 'page' }).textContent).toBe('4');
  });

  it('drops unreadable and redundant page values', async () => {
    let search = renderAt('/list?page=abc&search=x', 35);
    await act(async () => {});
    expect(search()).toBe('?search=x');
    cleanup();
    search = renderAt('/list?page=0', 35);
    await act(async () => {});
    expect(search()).toBe('');
    cleanup();
    search = renderAt('/list?page=3', 0);
    await act(async () => {});
    expect(search()).toBe('');
  });

  it('does not navigate when the current page is clicked', () => {
    const search = renderAt('/list?page=2', 35);
    fireEvent.click(screen.getByRole('button', { current: 'page' }));
    expect(search()).toBe('?page=2');
  });
});
