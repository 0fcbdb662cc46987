import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { ColumnsOutOfView, countColumnsOutOfView } from './columns-out-of-view.tsx';

describe('columns out of view', () => {
  afterEach(cleanup);

  const frame = { left: 0, right: 500 };

  it('counts the columns beyond the right edge, a half-shown one included', () => {
    const columns = [0, 100, 200, 300, 400, 500, 600].map((left) => ({ left, right: left + 100 }));
    expect(countColumnsOutOfView(columns, frame)).toEqual({ left: 0, right: 2 });
    expect(countColumnsOutOfView(columns, { left: 0, right: 450 })).toEqual({ left: 0, right: 3 });
  });

  it('counts what sticky columns cover: beneath the form names on the left, the study-wide column on the right', () => {
    const columns = [
      { left: 0, right: 150, sticky: 'start' as const },
      { left: 100, right: 200 },
      { left: 200, right: 300 },
      { left: 300, right: 420 },
      { left: 400, right: 500, sticky: 'end' as const },
    ];
    // Scrolled: one visit lies under the form names, one under the study-wide column.
    expect(countColumnsOutOfView(columns, frame)).toEqual({ left: 1, right: 1 });
  });

  it('says how many columns lie on each side, and nothing when the table fits', async () => {
    await i18n.changeLanguage('en');
    const { container, rerender } = render(<ColumnsOutOfView left={0} right={3} />);
    expect(container.textContent).toBe('3 more columns to the right →');
    rerender(<ColumnsOutOfView left={1} right={0} />);
    expect(container.textContent).toBe('← 1 column to the left');
    rerender(<ColumnsOutOfView left={0} right={0} />);
    expect(container.textContent).toBe('');
    await i18n.changeLanguage('ko');
    rerender(<ColumnsOutOfView left={2} right={1} />);
    expect(container.textContent).toBe('← 왼쪽에 열 2개·오른쪽에 열 1개 더 →');
    expect(screen.getByText(/오른쪽에 열 1개 더/)).not.toBeNull();
  });
});
