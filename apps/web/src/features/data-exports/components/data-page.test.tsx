import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { ToastProvider } from '../../../components/toast.tsx';
import { DataPage } from './data-page.tsx';

const sites = [
  { id: 11, code: 'HBU', name: '한빛대학교병원', institutionNumber: '01' },
  { id: 12, code: 'SNU', name: '서울병원', institutionNumber: '02' },
];

function job(
  id: number,
  state: 'running' | 'done',
  valuesDone: number,
  format = 'odm-1.3.2',
  labels: 'ko' | 'en' | null = null,
) {
  return {
    id,
    format,
    scope: state === 'running' ? { siteIds: [12], statuses: ['ongoing'] } : {},
    auditTrail: true,
    labels,
    // The table export of the list (id 6) was masked.
    maskPersonalData: format !== 'odm-1.3.2',
    valuesAsOf: 'current',
    state,
    valuesTotal: 400,
    valuesDone,
    subjectsDone: 3,
    error: null,
    requestedBy: { id: 7, name: '정데이' },
    createdAt: '2026-11-20T01:02:00Z',
    startedAt: '2026-11-20T01:02:01Z',
    finishedAt: state === 'done' ? '2026-11-20T01:03:00Z' : null,
    fileName: state === 'done' ? `TMP-2026_${format}_${id}.file` : null,
    byteSize: state === 'done' ? 1234 : null,
    sha256: null,
  };
}

/** The server: me (with or without the export ability), the definition (absent), the list, start. */
function serve(mayExport: boolean) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname;
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/api/auth/me')
      return json({
        user: { id: 7, name: '정데이', email: 'dm@demo.cdms', locale: 'ko', isAdmin: false },
        memberships: [
          {
            studyId: 1,
            studyCode: 'TMP-2026',
            studyTitle: 'T',
            studyTitleEn: '',
            studyStatus: 'active',
            roles: [mayExport ? 'DM' : 'CRA'],
            sites,
            abilities: mayExport ? ['subject.read', 'data.export'] : ['subject.read'],
            designRoles: [],
          },
        ],
        csrfToken: 'token',
        session: {
          idleExpiresAt: '2099-01-01T00:00:00Z',
          absoluteExpiresAt: '2099-01-01T00:00:00Z',
          serverTime: '2026-11-20T00:00:00Z',
          idleTimeoutSeconds: 1800,
        },
      });
    if (path === '/api/studies/1/data-exports' && init?.method === 'POST')
      return json(job(9, 'running', 0), 201);
    if (path === '/api/studies/1/data-exports')
      return json({
        exports: [job(8, 'running', 100), job(6, 'done', 400, 'tables-xlsx', 'en'), job(5, 'done', 400)],
        total: 3,
        page: 1,
        size: 10,
      });
    return json({ error: { code: 'not_found', message: 'not found' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/data/:studyId', element: <DataPage /> }], {
    initialEntries: ['/data/1'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('DataPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows each export with its progress bar, scope and, once done, its download link', async () => {
    serve(true);
    renderPage();
    const running = (await screen.findByText('실행 중')).closest('tr') as HTMLElement;
    const bar = within(running).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(bar.getAttribute('aria-valuemax')).toBe('400');
    expect(within(running).getByText('값 100 / 400 · 대상자 3명')).toBeTruthy();
    expect(within(running).getByText('SNU')).toBeTruthy();
    expect(within(running).getByRole('button', { name: '취소' })).toBeTruthy();
    expect(within(running).queryByRole('link', { name: '내려받기' })).toBeNull();

    const table = (await screen.findByText('양식별 표 (XLSX)', { selector: 'td div' })).closest(
      'tr',
    ) as HTMLElement;
    expect(within(table).getByText('라벨: English')).toBeTruthy();
    expect(within(table).getByText('개인정보 가림')).toBeTruthy();
    expect(within(table).queryByText('감사 추적 포함')).toBeNull();
    expect(within(running).queryByText('개인정보 가림')).toBeNull();

    const link = screen.getAllByRole('link', { name: '내려받기' })[1] as HTMLElement;
    const done = link.closest('tr') as HTMLElement;
    expect(within(done).getByText('완료', { selector: 'span' })).toBeTruthy();
    expect(link.getAttribute('href')).toBe('/api/studies/1/data-exports/5/download');
    expect(within(done).getByText('전체 기관')).toBeTruthy();
  });

  it("offers a site's casebooks as one ZIP, in the chosen language, with or without the audit trail", async () => {
    serve(true);
    renderPage();
    const link = await screen.findByRole('link', { name: '증례기록서 ZIP 내려받기' });
    expect(link.getAttribute('href')).toBe('/api/studies/1/sites/11/casebooks.zip?lang=ko&audit=0');
    fireEvent.change(screen.getByRole('combobox', { name: '기관' }), { target: { value: '12' } });
    fireEvent.change(screen.getByRole('combobox', { name: '언어' }), { target: { value: 'en' } });
    fireEvent.click(screen.getByRole('checkbox', { name: '양식마다 감사 추적 포함' }));
    expect(link.getAttribute('href')).toBe('/api/studies/1/sites/12/casebooks.zip?lang=en&audit=1');
  });

  it('starts an export of the ticked sites and statuses, all forms, in the chosen format', async () => {
    const fetchMock = serve(true);
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'SNU 서울병원' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '진행 중' }));
    fireEvent.click(screen.getByRole('radio', { name: 'CDISC ODM 2.0 (XML)' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '감사 추적 포함' }));
    fireEvent.click(screen.getByRole('button', { name: '내보내기 시작' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
      ).toBe(true),
    );
    const post = fetchMock.mock.calls.find(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toEqual({
      format: 'odm-2.0',
      auditTrail: false,
      maskPersonalData: false,
      scope: { siteIds: [12], statuses: ['ongoing'] },
    });
  });

  it('offers value labels instead of the audit trail for the form tables, and sends the choice', async () => {
    const fetchMock = serve(true);
    renderPage();
    expect(await screen.findByRole('checkbox', { name: '감사 추적 포함' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: '한국어' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: '양식별 표 (CSV, ZIP)' }));
    expect(screen.queryByRole('checkbox', { name: '감사 추적 포함' })).toBeNull();
    expect((screen.getByRole('radio', { name: '코드만' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: '한국어' }));
    // As of the current version unless "as entered" is picked; each says what it gives.
    expect((screen.getByRole('radio', { name: '현재 버전 기준' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: '입력된 그대로' }));
    expect(screen.getByText(/이관이 바꾼 값은 바뀌기 전 값으로/)).toBeTruthy();
    const mask = screen.getByRole('checkbox', { name: '개인정보 가리기' });
    expect(mask.getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(mask);
    fireEvent.click(screen.getByRole('button', { name: '내보내기 시작' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
      ).toBe(true),
    );
    const post = fetchMock.mock.calls.find(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toEqual({
      format: 'tables-csv',
      auditTrail: false,
      labels: 'ko',
      valuesAsOf: 'entered',
      maskPersonalData: true,
      scope: {},
    });
  });

  it('asks for a form when "chosen forms" is picked with none ticked, and sends nothing', async () => {
    const fetchMock = serve(true);
    renderPage();
    fireEvent.click(await screen.findByRole('radio', { name: '선택한 CRF' }));
    fireEvent.click(screen.getByRole('button', { name: '내보내기 시작' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'CRF를 하나 이상 선택하거나 전체 CRF를 내보내세요.',
    );
    expect(
      fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST'),
    ).toBe(false);
  });

  it('tells a monitor who may export, and reads no exports', async () => {
    const fetchMock = serve(false);
    renderPage();
    expect(
      await screen.findByText('데이터관리자와 시스템 관리자만 연구 데이터를 내보낼 수 있습니다.'),
    ).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('data-exports'))).toBe(false);
  });
});
