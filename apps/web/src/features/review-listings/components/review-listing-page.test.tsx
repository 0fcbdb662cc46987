import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { ReviewListingPage } from './review-listing-page.tsx';

const table = {
  name: 'vitals',
  formKey: 'vitals',
  formLabel: { ko: '활력 징후', en: 'Vital signs' },
  groupKey: null,
  groupLabel: null,
};

function row(formInstanceId: number, screeningNumber: string, review: string) {
  return {
    formInstanceId,
    subjectPk: formInstanceId * 10,
    screeningNumber,
    siteId: 1,
    siteCode: '01',
    visitKey: 'v1',
    visitLabel: { ko: '스크리닝', en: 'Screening' },
    row: null,
    formStatus: 'check',
    version: 2,
    savedAt: '2026-11-20T01:02:00Z',
    review,
    reviewedAt: review === 'not_reviewed' ? null : '2026-11-21T01:02:00Z',
    reviewedBy: review === 'not_reviewed' ? null : '최모니',
    cells: { pulse: String(60 + formInstanceId), result: '정상' },
  };
}

/** The server: the listings, one page of a listing (review rights as given), marks and bulk queries. */
function serve(mayReview: boolean) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const { pathname } = new URL(url, 'http://localhost');
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (pathname === '/api/studies/1/review-listings') return json({ tables: [table] });
    if (pathname === '/api/studies/1/review-listings/vitals')
      return json({
        table,
        columns: [
          { key: 'pulse', label: { ko: '맥박', en: 'Pulse' }, type: 'integer' },
          { key: 'result', label: { ko: '판정', en: 'Result' }, type: 'singleChoice' },
        ],
        visits: [{ key: 'v1', label: { ko: '스크리닝', en: 'Screening' } }],
        sites: [{ id: 1, code: '01', name: '서울' }],
        rows: [row(1, 'S01-001', 'not_reviewed'), row(2, 'S01-002', 'changed')],
        mayReview,
        mayRaiseQueries: mayReview,
        total: 2,
        page: 1,
        size: 50,
      });
    if (pathname === '/api/studies/1/review-listings/vitals/review' && init?.method === 'POST')
      return json({ marked: JSON.parse(String(init.body)).formInstanceIds.length });
    if (pathname === '/api/studies/1/review-listings/bulk-queries' && init?.method === 'POST')
      return json({ queryIds: [91, 92] }, 201);
    if (pathname === '/api/auth/me') return json({ user: null });
    return json({ error: { code: 'not_found', message: 'not found' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage(url: string) {
  const router = createMemoryRouter([{ path: '/review/:studyId', element: <ReviewListingPage /> }], {
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

const posted = (fetchMock: ReturnType<typeof serve>, path: string) =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) => String(url).startsWith(path) && (init as RequestInit | undefined)?.method === 'POST',
    )
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

describe('ReviewListingPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.localStorage.clear();
  });

  it('lists the first form with its items, review states and the sort in the URL; a reader without review rights picks nothing', async () => {
    const fetchMock = serve(false);
    const router = renderPage('/review/1?sort=item:pulse&order=desc');
    const changed = (await screen.findByText('S01-002')).closest('tr') as HTMLElement;
    expect(within(changed).getByText('검토 후 변경됨')).toBeTruthy();
    expect(within(changed).getByText('정상')).toBeTruthy();
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.includes('/vitals?'));
    expect(asked).toBe('/api/studies/1/review-listings/vitals?sort=item%3Apulse&dir=desc&page=1&size=50');
    expect(screen.getByRole('columnheader', { name: /맥박/ })).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: '쿼리 발행' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /마지막 저장/ }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=savedAt'));
  });

  it('marks the selected rows reviewed', async () => {
    const fetchMock = serve(true);
    renderPage('/review/1');
    fireEvent.click(await screen.findByRole('checkbox', { name: '이 페이지의 모든 줄 선택' }));
    fireEvent.click(screen.getByRole('button', { name: '검토 완료 표시' }));
    await waitFor(() =>
      expect(posted(fetchMock, '/api/studies/1/review-listings/vitals/review')).toEqual([
        { formInstanceIds: [1, 2] },
      ]),
    );
  });

  it('raises one query per picked cell with one text, from keyboard-usable cell buttons', async () => {
    const fetchMock = serve(true);
    renderPage('/review/1');
    const pulse = await screen.findByRole('button', { name: /S01-001, 스크리닝의 맥박/ });
    fireEvent.click(pulse);
    expect(pulse.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: /S01-002, 스크리닝의 판정/ }));
    fireEvent.click(screen.getByRole('button', { name: '쿼리 발행' }));
    const dialog = await screen.findByRole('dialog', { name: '쿼리 2건 발행' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['S01-001 · 스크리닝 · 맥박', 'S01-002 · 스크리닝 · 판정']);
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '원자료를 확인하세요.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '쿼리 2건 발행' }));
    await waitFor(() =>
      expect(posted(fetchMock, '/api/studies/1/review-listings/bulk-queries')).toEqual([
        {
          text: '원자료를 확인하세요.',
          targets: [
            { subjectPk: 10, visitKey: 'v1', formKey: 'vitals', itemPath: 'pulse' },
            { subjectPk: 20, visitKey: 'v1', formKey: 'vitals', itemPath: 'result' },
          ],
        },
      ]),
    );
  });
});
