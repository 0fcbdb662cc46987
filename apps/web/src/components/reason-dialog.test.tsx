import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ReactNode, useEffect, useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../i18n/i18n.ts';
import { ModalStackProvider, useModalStack } from './modal-stack-provider.tsx';
import { ReasonDialog } from './reason-dialog.tsx';

const NAME = 'test-reason';

function Opener({ children }: { children: ReactNode }) {
  const modals = useModalStack();
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    modals.open(NAME);
  }, [modals]);
  return children;
}

function renderDialog(onSubmit: (reason: string) => Promise<string | null>) {
  render(
    <ModalStackProvider>
      <Opener>
        <ReasonDialog
          name={NAME}
          title="잠금"
          reasonLabel="사유"
          confirmLabel="대상자 잠금"
          onSubmit={onSubmit}
        >
          <p>대상: 대상자 S01-001</p>
        </ReasonDialog>
      </Opener>
    </ModalStackProvider>,
  );
}

describe('the reason dialog', () => {
  afterEach(cleanup);

  it('asks for a reason before sending anything', async () => {
    const onSubmit = vi.fn(async () => null);
    renderDialog(onSubmit);
    const dialog = await screen.findByRole('dialog', { name: '잠금' });
    expect(dialog.textContent).toContain('대상: 대상자 S01-001');
    fireEvent.change(screen.getByLabelText('사유'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: '대상자 잠금' }));
    expect((await screen.findByRole('alert')).textContent).toBe('사유를 입력하세요.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the trimmed reason and closes when the change is done', async () => {
    const onSubmit = vi.fn(async (_reason: string) => null);
    renderDialog(onSubmit);
    await screen.findByRole('dialog', { name: '잠금' });
    fireEvent.change(screen.getByLabelText('사유'), { target: { value: ' 중간 분석 전 확정 ' } });
    fireEvent.click(screen.getByRole('button', { name: '대상자 잠금' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onSubmit).toHaveBeenCalledWith('중간 분석 전 확정');
  });

  it('keeps the dialog open with the server’s refusal under the reason', async () => {
    renderDialog(async () => '이미 프리징 또는 잠금 상태입니다. 최신 상태를 확인하세요.');
    await screen.findByRole('dialog', { name: '잠금' });
    fireEvent.change(screen.getByLabelText('사유'), { target: { value: '확정' } });
    fireEvent.click(screen.getByRole('button', { name: '대상자 잠금' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '이미 프리징 또는 잠금 상태입니다. 최신 상태를 확인하세요.',
    );
    expect(screen.getByRole('dialog', { name: '잠금' })).toBeTruthy();
    expect(screen.getByLabelText('사유').getAttribute('aria-invalid')).toBe('true');
  });
});
