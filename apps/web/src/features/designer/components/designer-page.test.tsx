import type { StudyDefinition } from '@cdms/study';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { DesignerPage } from './designer-page.tsx';

const definition: StudyDefinition = {
  key: 'TINY',
  version: '1.0.0',
  label: { ko: '작은 연구', en: 'Tiny study' },
  codeLists: [],
  visits: [
    { key: 'V1', label: { ko: '선별', en: 'Screening' }, group: 'screening', forms: ['demo'] },
    {
      key: 'V2',
      label: { ko: '추적', en: 'Follow-up' },
      group: 'follow_up',
      window: { anchorVisit: 'V1', offsetDays: 28, minusDays: 3, plusDays: 7 },
      forms: [],
    },
  ],
  forms: [
    {
      key: 'demo',
      label: { ko: '인구학', en: 'Demographics' },
      sections: [{ key: 's', label: { ko: '가', en: 'A' }, items: [] }],
    },
    {
      key: 'vitals',
      label: { ko: '활력 징후', en: '' },
      sections: [{ key: 's', label: { ko: '가', en: 'A' }, items: [] }],
    },
  ],
};

interface ServeOptions {
  abilities?: string[];
  status?: 'design' | 'active';
  refuse?: boolean;
}

/** The server: me, the definition, and its save (refused with a problem when `refuse`). */
function serve({
  abilities = ['subject.read', 'study.design'],
  status = 'design',
  refuse = false,
}: ServeOptions = {}) {
  const saved: unknown[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname;
    const json = (body: unknown, code = 200) =>
      new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
    if (path === '/api/auth/me')
      return json({
        user: { id: 1, name: '관리자', email: 'admin@demo.cdms', locale: 'ko', isAdmin: true },
        memberships: [
          {
            studyId: 4,
            studyCode: 'TINY-1',
            studyTitle: '작은 연구',
            studyTitleEn: 'Tiny study',
            studyStatus: status,
            roles: ['ADMIN'],
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
    if (path === '/api/studies/4/definition' && init?.method === 'PUT') {
      saved.push(JSON.parse(String(init.body)));
      if (refuse)
        return json(
          {
            error: {
              code: 'invalid_definition',
              message: 'invalid',
              details: {
                problems: [{ path: '/forms/1/label/en', message: '비어 있음' }],
              },
            },
          },
          422,
        );
      return json({ version: '1.0.0', contentHash: 'bbbbbbbbbbbbbbbb' });
    }
    if (path === '/api/studies/4/definition')
      return json({ studyId: 4, version: '1.0.0', contentHash: 'aaaaaaaaaaaaaaaa', definition });
    return json({ error: { code: 'not_found', message: 'not found' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return saved;
}

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/design/:studyId', element: <DesignerPage /> },
      { path: '/elsewhere', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/design/4'] },
  );
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

describe('DesignerPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the schedule as a table: visits as columns, forms as rows, labelled checkboxes', async () => {
    serve();
    renderPage();
    const table = await screen.findByRole('table', { name: /^방문별 양식 일정/ });
    expect(within(table).getAllByRole('columnheader')).toHaveLength(3);
    expect((within(table).getByRole('checkbox', { name: '선별의 인구학' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((within(table).getByRole('checkbox', { name: '추적의 인구학' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect(within(table).getByText('기준 V1 +28일 (−3/+7)')).toBeTruthy();
    // Only the empty English label of the second form is marked.
    expect(within(table).getAllByText('번역 없음: EN')).toHaveLength(1);
    expect(screen.getByText('버전 1.0.0 · 해시 aaaaaaaaaaaa')).toBeTruthy();
  });

  it('toggles a cell, undoes and redoes it, and saves the whole definition', async () => {
    const saved = serve();
    renderPage();
    const cell = await screen.findByRole('checkbox', { name: '추적의 인구학' });
    const save = screen.getByRole('button', { name: '저장' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(cell);
    expect((cell as HTMLInputElement).checked).toBe(true);
    expect((save as HTMLButtonElement).disabled).toBe(false);
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect((screen.getByRole('checkbox', { name: '추적의 인구학' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '다시 실행' }));
    expect((screen.getByRole('checkbox', { name: '추적의 인구학' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(save);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect((saved[0] as StudyDefinition).visits[1]?.forms).toEqual(['demo']);
    expect(await screen.findByText('버전 1.0.0 · 해시 bbbbbbbbbbbb')).toBeTruthy();
    expect((screen.getByRole('button', { name: '저장' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: '실행 취소' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('moves a visit right and adds a visit through its dialog', async () => {
    serve();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '선별 오른쪽으로 이동' }));
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers[1]?.textContent).toContain('추적');
    fireEvent.click(screen.getByRole('button', { name: '방문 추가' }));
    const dialog = await screen.findByRole('dialog', { name: '방문 추가' });
    fireEvent.change(within(dialog).getByLabelText('키'), { target: { value: 'V3' } });
    fireEvent.change(within(dialog).getByLabelText('이름 (한국어)'), { target: { value: '종료' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '적용' }));
    expect(
      ((await screen.findByRole('checkbox', { name: '종료의 인구학' })) as HTMLInputElement).checked,
    ).toBe(false);
    expect(within(screen.getByRole('table')).getAllByText('번역 없음: EN')).toHaveLength(2);
  });

  it('lists the problems of a refused save, each leading to its element', async () => {
    serve({ refuse: true });
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: '추적의 인구학' }));
    fireEvent.click(screen.getByRole('button', { name: '저장' }));
    const problem = await screen.findByRole('button', { name: /활력 징후 \(vitals\)/ });
    expect(problem.textContent).toContain('/forms/1/label/en');
    expect(problem.textContent).toContain('비어 있음');
    expect(screen.getByText('문제 있음')).toBeTruthy();
    fireEvent.click(problem);
    expect(document.activeElement?.id).toBe('designer-form-1');
  });

  it('asks before leaving with unsaved changes', async () => {
    serve();
    const router = renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: '추적의 인구학' }));
    void router.navigate('/elsewhere');
    const question = await screen.findByRole('alertdialog', { name: '저장하지 않은 변경' });
    fireEvent.click(within(question).getByRole('button', { name: '머무르기' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/design/4');
    void router.navigate('/elsewhere');
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: '저장하지 않은 변경' })).getByRole('button', {
        name: '떠나기',
      }),
    );
    expect(await screen.findByText('elsewhere')).toBeTruthy();
  });

  it('is read-only with a notice when the study is live', async () => {
    serve({ status: 'active' });
    renderPage();
    expect(
      ((await screen.findByRole('checkbox', { name: '선별의 인구학' })) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByRole('note').textContent).toContain('변경 승인');
    expect(screen.queryByRole('button', { name: '저장' })).toBeNull();
  });

  it('refuses a member without the design ability', async () => {
    serve({ abilities: ['subject.read'] });
    renderPage();
    expect(await screen.findByText(/설계 권한이 없습니다/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
