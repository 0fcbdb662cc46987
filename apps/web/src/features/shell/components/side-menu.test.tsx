import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../../../i18n/i18n.ts';
import { taskListMenu } from '../lib/menu.ts';
import { SideMenu } from './side-menu.tsx';

/** happy-dom's window can be resized; matchMedia follows it. */
function setWindowWidth(width: number) {
  (
    window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }
  ).happyDOM.setViewport({
    width,
    height: 900,
  });
}

function renderMenu() {
  const router = createMemoryRouter([{ path: '*', element: <SideMenu entries={taskListMenu()} /> }], {
    initialEntries: ['/task-list'],
  });
  render(<RouterProvider router={router} />);
  return () => document.querySelector('aside')?.getAttribute('data-collapsed');
}

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

describe('SideMenu width', () => {
  it('starts folded below 1100px and open above; the user may unfold it on a narrow window', () => {
    setWindowWidth(1000);
    const collapsed = renderMenu();
    expect(collapsed()).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: '메뉴 펼치기' }));
    expect(collapsed()).toBe('false');
    expect(window.localStorage.getItem('cdms.sideMenu.collapsedNarrow')).toBe('0');

    // A wider window: the wide choice (never made: open) applies; narrower again: the narrow one.
    act(() => setWindowWidth(1440));
    expect(collapsed()).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: '메뉴 접기' }));
    expect(collapsed()).toBe('true');
    act(() => setWindowWidth(1000));
    expect(collapsed()).toBe('false');
  });

  it('folds by itself when the window narrows, with no choice made', () => {
    setWindowWidth(1440);
    const collapsed = renderMenu();
    expect(collapsed()).toBe('false');
    act(() => setWindowWidth(1099));
    expect(collapsed()).toBe('true');
  });
});
