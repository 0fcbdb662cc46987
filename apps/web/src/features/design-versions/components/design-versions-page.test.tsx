import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { DesignVersionsPage } from './design-versions-page.tsx';

const version = (name: string, createdAt: string, items: number) => ({
  version: name,
  createdAt,
  contentHash: `${name.replaceAll('.', '')}${'a'.repeat(61)}`,
  counts: { visits: 2, forms: 3, items },
});
const versions = [
  version('1.0.0', '2026-11-01T01:00:00.000Z', 10),
  version('1.1.0', '2026-11-02T01:00:00.000Z', 11),
  version('1.2.0', '2026-11-03T01:00:00.000Z', 12),
];
const noCount = { added: 0, removed: 0, changed: 0, moved: 0 };

/** The server: me (with or without the design ability), the versions, and comparisons. */
function serve({ abilities = ['subject.read', 'study.design'] }: { abilities?: string[] } = {}) {
  const compared: string[] = [];
  const fetchMock = vi.fn(async (url: string) => {
    const address = new URL(url, 'http://localhost');
    const json = (body: unknown, code = 200) =>
      new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
    if (address.pathname === '/api/auth/me')
      return json({
        user: { id: 1, name: '데이터 관리자', email: 'dm@demo.cdms', locale: 'ko', isAdmin: false },
        memberships: [
          {
            studyId: 4,
            studyCode: 'TINY-1',
            studyTitle: '작은 연구',
            studyTitleEn: 'Tiny study',
            studyStatus: 'design',
            roles: ['DM'],
            sites: [],
            abilities,
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
    if (address.pathname === '/api/studies/4/definition-versions') return json({ versions });
    if (address.pathname === '/api/studies/4/definition-versions/compare') {
      const from = address.searchParams.get('from') ?? '';
      const to = address.searchParams.get('to') ?? '';
      compared.push(`${from}→${to} ${address.searchParams.get('lang')}`);
      return json({
        language: 'ko',
        from: versions.find((candidate) => candidate.version === from),
        to: versions.find((candidate) => candidate.version === to),
        summary: {
          visits: noCount,
          forms: noCount,
          items: { ...noCount, added: 1, moved: 1 },
          codeLists: noCount,
          checks: { ...noCount, removed: 1 },
        },
        lines: [
          { path: 'study/version', kind: 'changed', text: `시험: 버전 ${from} → ${to}` },
          { path: 'forms/vitals/items/pulse', kind: 'added', text: '양식 활력 징후 › 항목 맥박: 추가됨' },
          { path: 'forms/vitals/items/rate', kind: 'moved', text: '양식 활력 징후 › 항목 호흡: 순서 2 → 3' },
          { path: 'forms/vitals/checks/c1', kind: 'removed', text: '양식 활력 징후 › 검사 c1: 삭제됨' },
        ],
      });
    }
    return json({ error: { code: 'not_found', message: 'not found' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return compared;
}

function renderPage(address = '/design/4/versions') {
  const router = createMemoryRouter(
    [{ path: '/design/:studyId/versions', element: <DesignVersionsPage /> }],
    {
      initialEntries: [address],
    },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('DesignVersionsPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('compares the previous version with the newest at first, each change marked in words', async () => {
    const compared = serve();
    renderPage();
    const from = (await screen.findByRole('combobox', { name: '이전 버전' })) as HTMLSelectElement;
    const to = screen.getByRole('combobox', { name: '새 버전' }) as HTMLSelectElement;
    expect(from.value).toBe('1.1.0');
    expect(to.value).toBe('1.2.0');
    const lines = await screen.findByRole('table', { name: /^변경 내용 4건/ });
    const rows = within(lines).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '~변경시험시험: 버전 1.1.0 → 1.2.0',
      '+추가양식양식 활력 징후 › 항목 맥박: 추가됨',
      '↕이동양식양식 활력 징후 › 항목 호흡: 순서 2 → 3',
      '−삭제양식양식 활력 징후 › 검사 c1: 삭제됨',
    ]);
    const summary = screen.getByRole('table', { name: /^요약: 1\.1\.0 → 1\.2\.0/ });
    const items = within(summary).getByRole('rowheader', { name: '항목' }).closest('tr') as HTMLElement;
    expect(
      within(items)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1', '0', '0', '1']);
    expect(screen.getByRole('link', { name: 'PDF 내려받기' }).getAttribute('href')).toBe(
      '/api/studies/4/definition-versions/compare.pdf?from=1.1.0&to=1.2.0&lang=ko',
    );
    expect(screen.getByText('방문 2 · 양식 3 · 항목 12')).toBeTruthy();
    expect(compared).toEqual(['1.1.0→1.2.0 ko']);
  });

  it('compares the versions chosen, kept in the address', async () => {
    const compared = serve();
    const router = renderPage();
    fireEvent.change(await screen.findByRole('combobox', { name: '이전 버전' }), {
      target: { value: '1.0.0' },
    });
    await screen.findByRole('table', { name: /^요약: 1\.0\.0 → 1\.2\.0/ });
    expect(router.state.location.search).toBe('?from=1.0.0&to=1.2.0');
    expect(compared).toContain('1.0.0→1.2.0 ko');
    expect(screen.getByRole('link', { name: 'PDF 내려받기' }).getAttribute('href')).toContain(
      'from=1.0.0&to=1.2.0',
    );
  });

  it('takes the versions from the address, and ignores one the study does not have', async () => {
    serve();
    renderPage('/design/4/versions?from=1.0.0&to=9.9.9');
    expect(((await screen.findByRole('combobox', { name: '이전 버전' })) as HTMLSelectElement).value).toBe(
      '1.0.0',
    );
    expect((screen.getByRole('combobox', { name: '새 버전' }) as HTMLSelectElement).value).toBe('1.2.0');
  });

  it('tells a member without the design ability why the page is empty', async () => {
    serve({ abilities: ['subject.read'] });
    renderPage();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/데이터관리자와 관리자만/));
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
