import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { QueryListPage } from './query-list-page.tsx';

function listRow(id: number, state: 'open' | 'answered') {
  const message = {
    id: id * 10,
    kind: 'opened',
    text: { ko: '값을 확인하세요', en: 'Check the value' },
    author: { userId: 5, name: '최모니', role: 'CRA' },
    at: '2026-11-20T01:02:00Z',
    proposedValue: null,
  };
  return {
    id,
    kind: 'manual',
    state,
    reopened: false,
    assignee: 'site',
    subject: { pk: 3, subjectId: 'S02-003', registrationNumber: null, siteId: 2, site: '02' },
    visitKey: 'v1',
    formKey: 'vitalSigns',
    itemPath: 'v1.vitalSigns.heartRate',
    visitLabel: { ko: '스크리닝 (V1)', en: 'Screening (V1)' },
    formLabel: { ko: '활력 징후', en: 'Vital signs' },
    itemLabel: { ko: '맥박', en: 'Heart rate' },
    checkId: null,
    openedAt: '2026-11-20T01:02:00Z',
    ageDays: 5,
    closedAt: null,
    messageCount: 1,
    lastMessage: message,
  };
}

/** The server: the list (canManage as given), one query's thread, me and the definition (absent). */
function serve(canManage: boolean) {
  const fetchMock = vi.fn(async (url: string) => {
    const path = new URL(url, 'http://localhost').pathname;
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/api/studies/1/queries')
      return json({
        queries: [listRow(7, 'open'), listRow(8, 'answered')],
        total: 2,
        page: 1,
        size: 10,
        canManage,
      });
    if (path === '/api/studies/1/queries/7')
      return json({
        ...listRow(7, 'open'),
        messages: [listRow(7, 'open').lastMessage],
        checkStillFails: false,
        abilities: { answer: !canManage, comment: true, close: canManage, cancel: canManage, reopen: false },
      });
    if (path === '/api/auth/me') return json({ user: null });
    return json({ error: { code: 'not_found', message: 'not found' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage(url: string) {
  const router = createMemoryRouter([{ path: '/query/:studyId', element: <QueryListPage /> }], {
    initialEntries: [url],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <ModalStackProvider>
          <AlertDialogProvider>
            <RouterProvider router={router} />
          </AlertDialogProvider>
        </ModalStackProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}

const requested = (fetchMock: ReturnType<typeof serve>, path: string) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(path));

describe('QueryListPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("asks the server with the URL's filters; a site user gets no selection and no bulk actions", async () => {
    const fetchMock = serve(false);
    renderPage('/query/1?state=open&kind=manual');
    expect(await screen.findByText('총 2건')).toBeTruthy();
    expect(requested(fetchMock, '/api/studies/1/queries?')).toEqual([
      '/api/studies/1/queries?state=open&kind=manual&sort=age&order=desc&page=1&size=10',
    ]);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: '선택 종료' })).toBeNull();
    // The subject links to its form at the item.
    const link = screen.getAllByRole('link', { name: 'S02-003' })[0];
    expect(link?.getAttribute('href')).toBe(
      '/subject-list/subject/subject-detail/1?subject-id=S02-003&subject-pk=3&depth-1=v1&depth-2=vitalSigns&item=v1.vitalSigns.heartRate',
    );
  });

  it('opens the thread panel from a row', async () => {
    serve(false);
    renderPage('/query/1');
    const row = (await screen.findByRole('button', { name: '쿼리 #7 스레드 열기' })).closest('tr');
    fireEvent.click(within(row as HTMLElement).getByText('맥박'));
    const panel = await screen.findByRole('dialog', { name: '쿼리' });
    expect(await within(panel).findByText('최모니 (CRA)')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: '답변' })).toBeTruthy();
  });

  it('lets a monitor select rows and opens the bulk dialog with the count', async () => {
    serve(true);
    renderPage('/query/1');
    fireEvent.click(await screen.findByRole('checkbox', { name: '쿼리 #7 선택' }));
    expect(screen.getByText('1건 선택')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: '이 페이지의 쿼리 모두 선택' }));
    expect(screen.getByText('2건 선택')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '선택 취소' }));
    const dialog = await screen.findByRole('dialog', { name: '쿼리 일괄 취소' });
    expect(within(dialog).getByRole('button', { name: '2건 취소' })).toBeTruthy();
  });

  it('writes a sort to the URL and starts on page 1', async () => {
    serve(false);
    const router = renderPage('/query/1?page=2&state=all');
    await screen.findByText('총 2건');
    const button = screen.getByRole('button', { name: /발행일/ });
    fireEvent.click(button);
    await waitFor(() => expect(router.state.location.search).toBe('?state=all&sort=openedAt&order=asc'));
  });
});
