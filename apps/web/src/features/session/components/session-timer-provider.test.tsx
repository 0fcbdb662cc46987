import type { SessionInfo } from '@cdms/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { checkSession } from '../api/check-session.ts';
import { renewSession } from '../api/renew-session.ts';
import { SessionTimer } from './session-timer.tsx';
import { SessionTimerProvider } from './session-timer-provider.tsx';

vi.mock('../api/check-session.ts', () => ({ checkSession: vi.fn() }));
vi.mock('../api/renew-session.ts', () => ({ renewSession: vi.fn() }));

/** A session as the server would report it now, ending in `seconds`. */
function sessionEndingIn(seconds: number): SessionInfo {
  const now = Date.now();
  return {
    idleExpiresAt: new Date(now + seconds * 1000).toISOString(),
    absoluteExpiresAt: new Date(now + 12 * 3600 * 1000).toISOString(),
    serverTime: new Date(now).toISOString(),
    idleTimeoutSeconds: 3000,
  };
}

function renderTimer(session: SessionInfo, onExpire = vi.fn()) {
  render(
    <ToastProvider>
      <ModalStackProvider>
        <AlertDialogProvider>
          <SessionTimerProvider session={session} onExpire={onExpire}>
            <SessionTimer />
          </SessionTimerProvider>
        </AlertDialogProvider>
      </ModalStackProvider>
    </ToastProvider>,
  );
  return onExpire;
}

/** Lets the fake clock run and the awaited server checks settle. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('SessionTimerProvider', () => {
  // The alert dialog's code loads with the first dialog (alert-dialog.tsx): loaded before the fake
  // clock starts, it is there by the time the prompt opens.
  beforeAll(async () => {
    await import('../../../components/alert-dialog-view.tsx');
  });

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-05-01T01:00:00Z') });
    vi.mocked(checkSession).mockReset();
    vi.mocked(renewSession).mockReset();
  });

  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts down each second in mm:ss', async () => {
    renderTimer(sessionEndingIn(3000));
    expect(screen.getByRole('timer').textContent).toBe('50:00');
    await advance(1000);
    expect(screen.getByRole('timer').textContent).toBe('49:59');
    await advance(60_000);
    expect(screen.getByRole('timer').textContent).toBe('48:59');
  });

  it('asks once at 5 minutes, and extending starts over from the server answer', async () => {
    vi.mocked(checkSession).mockImplementation(async () => sessionEndingIn(299));
    vi.mocked(renewSession).mockImplementation(async () => sessionEndingIn(3000));
    renderTimer(sessionEndingIn(302));
    await advance(2000);
    const prompt = screen.getByRole('alertdialog');
    expect(prompt.textContent).toContain('5분 남았습니다');
    expect(checkSession).toHaveBeenCalledTimes(1);

    await advance(5000);
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1); // not asked again

    fireEvent.click(screen.getByRole('button', { name: '연장' }));
    await advance(0);
    expect(renewSession).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('timer').textContent).toBe('50:00');
  });

  it('does not ask when another tab has already extended the session', async () => {
    vi.mocked(checkSession).mockImplementation(async () => sessionEndingIn(2400));
    renderTimer(sessionEndingIn(301));
    await advance(1000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('timer').textContent).toBe('40:00');
  });

  it('ends the session once at 00:00 when the server agrees it is over', async () => {
    // Alive at the 5-minute check (the prompt opens), over at 00:00.
    vi.mocked(checkSession).mockResolvedValueOnce(sessionEndingIn(2)).mockResolvedValue(null);
    const onExpire = renderTimer(sessionEndingIn(2));
    await advance(0);
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    expect(onExpire).not.toHaveBeenCalled();
    await advance(2000);
    // The open prompt hides the rest of the page from the accessibility tree.
    expect(screen.getByRole('timer', { hidden: true }).textContent).toBe('00:00');
    expect(onExpire).toHaveBeenCalledTimes(1);
    await advance(5000);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('ends the session without asking when the server has already ended it', async () => {
    vi.mocked(checkSession).mockResolvedValue(null);
    const onExpire = renderTimer(sessionEndingIn(200));
    await advance(0);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('still asks when the server cannot be reached at the 5-minute check', async () => {
    vi.mocked(checkSession).mockRejectedValue(new Error('offline'));
    const onExpire = renderTimer(sessionEndingIn(250));
    await advance(0);
    expect(screen.getByRole('alertdialog').textContent).toContain('5분');
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('keeps going at 00:00 if the server says the session is still alive', async () => {
    vi.mocked(checkSession).mockImplementation(async () => sessionEndingIn(1200));
    const onExpire = renderTimer(sessionEndingIn(1));
    await advance(1000);
    expect(onExpire).not.toHaveBeenCalled();
    // 20:00 from the server's answer, or 19:59 if a tick followed it within the same second.
    expect(screen.getByRole('timer').textContent).toMatch(/^(20:00|19:59)$/);
  });
});
