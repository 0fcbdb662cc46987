import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ReactNode, useEffect, useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider, useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { BULK_QUERY_MODAL, type BulkAction, BulkQueryDialog, refusedQueryIds } from './bulk-query-dialog.tsx';

function Opener({ children }: { children: ReactNode }) {
  const modals = useModalStack();
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    modals.open(BULK_QUERY_MODAL);
  }, [modals]);
  return children;
}

function renderDialog(action: BulkAction, queryIds: number[], onDone = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ModalStackProvider>
          <AlertDialogProvider>
            <Opener>
              <BulkQueryDialog studyId={1} action={action} queryIds={queryIds} onDone={onDone} />
            </Opener>
          </AlertDialogProvider>
        </ModalStackProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return onDone;
}

/** The server answers every request with this status and JSON body (the real API client reads it). */
function serve(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('BulkQueryDialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says how many queries it closes and needs one reason', async () => {
    const fetchMock = serve(200, { updated: 3 });
    const onDone = renderDialog('close', [4, 5, 6]);
    const dialog = await screen.findByRole('dialog', { name: '쿼리 일괄 종료' });
    expect(dialog.textContent).toContain('선택한 쿼리 3건을 같은 사유로 종료합니다');
    fireEvent.click(screen.getByRole('button', { name: '3건 종료' }));
    expect((await screen.findByRole('alert')).textContent).toBe('사유를 입력하세요.');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('사유'), { target: { value: '원자료와 일치' } });
    fireEvent.click(screen.getByRole('button', { name: '3건 종료' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/studies/1/queries/bulk');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      action: 'close',
      queryIds: [4, 5, 6],
      text: '원자료와 일치',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('names the refused queries of a 409 and stays open (nothing changed)', async () => {
    serve(409, {
      error: {
        code: 'query_state_conflict',
        message: 'conflict',
        details: {
          queries: [
            { id: 5, state: 'closed' },
            { id: 6, state: 'cancelled' },
          ],
        },
      },
    });
    const onDone = renderDialog('cancel', [4, 5, 6]);
    await screen.findByRole('dialog', { name: '쿼리 일괄 취소' });
    fireEvent.change(screen.getByLabelText('사유'), { target: { value: '잘못 발행함' } });
    fireEvent.click(screen.getByRole('button', { name: '3건 취소' }));
    expect((await screen.findByRole('alert')).textContent).toContain('#5, #6');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('reads the refused ids however the details list them', () => {
    expect(refusedQueryIds({ queryIds: [1, 2] })).toEqual([1, 2]);
    expect(refusedQueryIds({ refused: [{ id: 3 }, 'x'] })).toEqual([3]);
    expect(refusedQueryIds(undefined)).toEqual([]);
    expect(refusedQueryIds({ queries: 'none' })).toEqual([]);
  });
});
