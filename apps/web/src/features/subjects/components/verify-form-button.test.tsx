import type { SdvItem } from '@cdms/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n.ts';
import { VerifyFormButton } from './verify-form-button.tsx';

/** The button's description, as a screen reader reads it (`aria-describedby`). */
function description(button: HTMLElement): string | null {
  const id = button.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

function item(inPlan: boolean, state: SdvItem['state']): SdvItem {
  return { state, inPlan, verifiedBy: null, verifiedAt: null, changedAt: null };
}

describe('"Verify form"', () => {
  afterEach(cleanup);

  it('says why it is off for a form outside the SDV plan, and the button reads the reason', async () => {
    await i18n.changeLanguage('en');
    render(<VerifyFormButton items={{ a: item(false, 'unverified') }} pending={false} onVerify={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Verify form' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(description(button)).toBe('This form is outside the SDV plan');
    expect(screen.getByText('This form is outside the SDV plan').hidden).toBe(false);
  });

  it('says when every planned item is verified, in Korean too', async () => {
    await i18n.changeLanguage('ko');
    render(<VerifyFormButton items={{ a: item(true, 'verified') }} pending={false} onVerify={vi.fn()} />);
    expect(description(screen.getByRole('button', { name: '양식 SDV' }))).toBe(
      '계획된 항목을 모두 확인했습니다',
    );
  });

  it('works, without a reason, while a planned item awaits verification', async () => {
    await i18n.changeLanguage('en');
    const onVerify = vi.fn();
    render(
      <VerifyFormButton
        items={{ a: item(true, 'verified'), b: item(true, 'changed'), c: item(false, 'unverified') }}
        pending={false}
        onVerify={onVerify}
      />,
    );
    const button = screen.getByRole('button', { name: 'Verify form' });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(description(button)).toBeNull();
    button.click();
    expect(onVerify).toHaveBeenCalledOnce();
  });
});
