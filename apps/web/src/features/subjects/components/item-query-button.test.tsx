import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { ItemQueryButton, querySummary } from './item-query-button.tsx';

type Status = 'open' | 'answered' | 'closed' | 'cancelled';

function query(id: number, status: Status, openedAt = `2026-03-0${id}T00:00:00Z`) {
  return {
    id,
    itemPath: 'v1.vitalSigns.heartRate',
    kind: 'manual' as const,
    status,
    checkId: null,
    message: { ko: '확인 바랍니다', en: 'Please check' },
    openedAt,
    messageCount: 1,
  };
}

describe('an item’s query badge', () => {
  afterEach(cleanup);

  it('counts open and answered queries under the state that needs work first', () => {
    expect(querySummary([query(1, 'answered'), query(2, 'open'), query(3, 'closed')])).toEqual({
      state: 'open',
      count: 2,
      settled: false,
    });
    expect(querySummary([query(1, 'answered'), query(2, 'cancelled')])).toEqual({
      state: 'answered',
      count: 1,
      settled: false,
    });
  });

  it('shows the latest settled state, muted, when nothing is open or answered; nothing without queries', () => {
    expect(querySummary([query(1, 'closed'), query(2, 'cancelled')])).toEqual({
      state: 'cancelled',
      count: 0,
      settled: true,
    });
    expect(querySummary([])).toBeNull();
  });

  it('is a button named by what it shows, or "+ query" for a monitor, or nothing', () => {
    const onOpen = vi.fn();
    const { rerender } = render(
      <ItemQueryButton
        queries={[query(1, 'open'), query(2, 'answered')]}
        canRaise={false}
        describedBy="x"
        onOpen={onOpen}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: '쿼리 · 열림 2건' }));
    expect(onOpen).toHaveBeenCalled();
    rerender(
      <ItemQueryButton queries={[query(1, 'closed')]} canRaise={false} describedBy="x" onOpen={onOpen} />,
    );
    expect(screen.getByRole('button', { name: '쿼리 · 종료' }).dataset.settled).toBe('true');
    rerender(<ItemQueryButton queries={[]} canRaise describedBy="x" onOpen={onOpen} />);
    expect(screen.getByRole('button', { name: '+ 쿼리' })).toBeTruthy();
    rerender(<ItemQueryButton queries={[]} canRaise={false} describedBy="x" onOpen={onOpen} />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
