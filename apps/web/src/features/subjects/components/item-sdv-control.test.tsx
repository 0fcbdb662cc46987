import type { SdvItem } from '@cdms/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { ItemSdvControl } from './item-sdv-control.tsx';

function item(state: SdvItem['state']): SdvItem {
  const verified = state !== 'unverified';
  return {
    state,
    inPlan: true,
    verifiedBy: verified ? { userId: 5, name: '최모니' } : null,
    verifiedAt: verified ? '2026-11-25T01:00:00Z' : null,
    changedAt: state === 'changed' ? '2026-11-25T02:30:00Z' : null,
  };
}

function renderControl(sdv: SdvItem | undefined, canVerify: boolean) {
  const onVerify = vi.fn();
  const onUnverify = vi.fn();
  render(
    <>
      <span id="label">혈압</span>
      <ItemSdvControl
        sdv={sdv}
        canVerify={canVerify}
        pending={false}
        describedBy="label"
        onVerify={onVerify}
        onUnverify={onUnverify}
      />
    </>,
  );
  return { onVerify, onUnverify };
}

describe('an item’s SDV control', () => {
  afterEach(cleanup);

  it('gives a monitor a checkbox: ticking verifies, unticking asks to withdraw', () => {
    const first = renderControl(item('unverified'), true);
    const box = screen.getByRole('checkbox', { name: 'SDV' });
    expect((box as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box);
    expect(first.onVerify).toHaveBeenCalledOnce();
    cleanup();

    const second = renderControl(item('verified'), true);
    const ticked = screen.getByRole('checkbox', { name: 'SDV' });
    expect((ticked as HTMLInputElement).checked).toBe(true);
    expect(ticked.closest('label')?.getAttribute('title')).toBe('최모니 · 2026-11-25 10:00 확인');
    fireEvent.click(ticked);
    expect(second.onUnverify).toHaveBeenCalledOnce();
    expect(second.onVerify).not.toHaveBeenCalled();
  });

  it('shows a value changed since it was verified with an empty box, to verify again', () => {
    renderControl(item('changed'), true);
    expect((screen.getByRole('checkbox', { name: 'SDV' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('SDV 후 변경됨').getAttribute('title')).toBe('2026-11-25 11:30에 변경됨');
  });

  it('shows others the mark only: verified, changed, or nothing', () => {
    renderControl(item('verified'), false);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByText('SDV 완료').getAttribute('title')).toBe('최모니 · 2026-11-25 10:00 확인');
    cleanup();
    renderControl(item('changed'), false);
    screen.getByText('SDV 후 변경됨');
    cleanup();
    const { container } = render(
      <ItemSdvControl
        sdv={item('unverified')}
        canVerify={false}
        pending={false}
        describedBy="x"
        onVerify={() => {}}
        onUnverify={() => {}}
      />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('shows nothing for an item without a saved value', () => {
    renderControl(undefined, true);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
