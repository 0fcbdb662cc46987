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
  /** The publish is refused with a problem. */
  refuse?: boolean;
  /** The first save finds that another designer saved revision 7. */
  conflict?: boolean;
  /** The live study's draft belongs to this amendment. */
  amendment?: { id: number; number: string };
}

interface SavedDraft {
  baseRevision: number;
  definition: StudyDefinition;
}

/**
 * The server: me, the definition, the draft (none at first), its saves (each the next revision; the
 * first a 409 when `conflict`) and its publish (refused with a problem when `refuse`).
 */
function serve({
  abilities = ['subject.read', 'study.design'],
  status = 'design',
  refuse = false,
  conflict = false,
  amendment,
}: ServeOptions = {}) {
  const saved: SavedDraft[] = [];
  const published: unknown[] = [];
  let revision = 0;
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
    if (path === '/api/studies/4/design-draft' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as SavedDraft;
      saved.push(body);
      if (conflict && saved.length === 1)
        return json(
          {
            error: {
              code: 'design_draft_changed',
              message: '김데이터 님이 설계 초안을 먼저 저장했습니다(개정 7).',
              details: {
                revision: 7,
                savedBy: { userId: 2, name: '김데이터', at: '2026-12-07T01:00:00Z' },
                lines: [
                  { path: 'forms/demo/label', kind: 'changed', text: '양식 인구학: 이름 인구학 → 인구 통계' },
                ],
                lineCount: 1,
              },
            },
          },
          409,
        );
      revision = Math.max(revision, body.baseRevision) + 1;
      return json({ revision, savedAt: '2026-12-07T01:02:03Z' });
    }
    if (path === '/api/studies/4/design-draft')
      return json({
        draft: null,
        changes: [],
        review: null,
        approvalRequired: false,
        publishedVersion: '1.0.0',
        amendment: amendment ?? null,
      });
    if (path === '/api/studies/4/design-draft/publish') {
      published.push(JSON.parse(String(init?.body)));
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
  return { saved, published };
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
    window.localStorage.clear();
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

  it('toggles a cell, undoes and redoes it; the draft saves itself, then is published', async () => {
    const { saved, published } = serve();
    renderPage();
    const cell = await screen.findByRole('checkbox', { name: '추적의 인구학' });
    const publish = screen.getByRole('button', { name: '배포' });
    expect((publish as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('초안: 아직 저장된 내용 없음')).toBeTruthy();
    fireEvent.click(cell);
    expect((cell as HTMLInputElement).checked).toBe(true);
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect((screen.getByRole('checkbox', { name: '추적의 인구학' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '다시 실행' }));
    expect((screen.getByRole('checkbox', { name: '추적의 인구학' }) as HTMLInputElement).checked).toBe(true);
    // Until the server has it, the edit is kept in this browser.
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 4000 });
    expect(saved[0]?.baseRevision).toBe(0);
    expect(saved[0]?.definition.visits[1]?.forms).toEqual(['demo']);
    expect(await screen.findByText(/초안 저장됨 · 개정 1 · 2026-12-07 10:02/)).toBeTruthy();
    expect(window.localStorage.length).toBe(0);
    // Undo keeps its history after a save.
    expect((screen.getByRole('button', { name: '실행 취소' }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '배포' }));
    await waitFor(() => expect(published).toEqual([{ revision: 1 }]));
    expect(await screen.findByText('배포했습니다. 버전 1.0.0')).toBeTruthy();
    expect((screen.getByRole('button', { name: '실행 취소' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends nothing when an edit is undone before it is saved, and says the draft is as it was', async () => {
    const { saved } = serve();
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: '추적의 인구학' }));
    expect(await screen.findByText('변경 내용을 곧 저장합니다…')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(await screen.findByText('초안: 아직 저장된 내용 없음')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(saved).toHaveLength(0);
  });

  it('stops saving on a 409 and saves over the other draft when the designer keeps theirs', async () => {
    const { saved } = serve({ conflict: true });
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: '추적의 인구학' }));
    const alert = await screen.findByRole(
      'alert',
      { name: '다른 사람이 초안을 먼저 저장했습니다' },
      { timeout: 4000 },
    );
    expect(alert.textContent).toContain('개정 7');
    expect(alert.textContent).toContain('이름 인구학 → 인구 통계');
    // Editing waits for the choice.
    expect((screen.getByRole('checkbox', { name: '선별의 인구학' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(alert).getByRole('button', { name: '내 초안을 유지하고 덮어쓰기' }));
    await waitFor(() => expect(saved).toHaveLength(2), { timeout: 4000 });
    expect(saved[1]?.baseRevision).toBe(7);
    expect(await screen.findByText(/초안 저장됨 · 개정 8/)).toBeTruthy();
    expect(screen.queryByRole('alert', { name: '다른 사람이 초안을 먼저 저장했습니다' })).toBeNull();
  });

  it('restores edits this browser kept but never sent, and saves them', async () => {
    const { saved } = serve();
    const kept = structuredClone(definition);
    kept.forms[0] = {
      ...(kept.forms[0] as StudyDefinition['forms'][number]),
      label: { ko: '인구 통계', en: 'Demography' },
    };
    window.localStorage.setItem(
      'cdms.designer.unsent.4',
      JSON.stringify({ baseRevision: 0, definition: kept }),
    );
    renderPage();
    expect(await screen.findByRole('checkbox', { name: '선별의 인구 통계' })).toBeTruthy();
    expect(screen.getByText(/서버에 전달되지 못한 이 브라우저의 변경 내용을 복원했습니다/)).toBeTruthy();
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 4000 });
    expect(saved[0]?.definition.forms[0]?.label.en).toBe('Demography');
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

  it('moves a visit and a form by dragging their grips onto another header', async () => {
    serve();
    renderPage();
    const table = await screen.findByRole('table');
    const visitHeaders = () => within(table).getAllByRole('columnheader');
    const grip = (header: HTMLElement) => header.querySelector('[draggable="true"]') as HTMLElement;
    const dataTransfer = { setData: () => {}, effectAllowed: '', dropEffect: '' };
    const follow = visitHeaders()[2] as HTMLElement;
    const screening = visitHeaders()[1]?.querySelector('[id^="designer-visit-"]') as HTMLElement;
    fireEvent.dragStart(grip(follow), { dataTransfer });
    fireEvent.dragOver(screening, { dataTransfer });
    expect(screening.hasAttribute('data-drop-over')).toBe(true);
    fireEvent.drop(screening, { dataTransfer });
    expect(visitHeaders()[1]?.textContent).toContain('추적');
    expect(screening.hasAttribute('data-drop-over')).toBe(false);
    // A visit's drag is not taken by a form's header.
    const formHeader = document.getElementById('designer-form-1') as HTMLElement;
    fireEvent.dragStart(grip(visitHeaders()[1] as HTMLElement), { dataTransfer });
    fireEvent.dragOver(formHeader, { dataTransfer });
    expect(formHeader.hasAttribute('data-drop-over')).toBe(false);
    fireEvent.dragEnd(grip(visitHeaders()[1] as HTMLElement), { dataTransfer });
    // Forms: the second dropped on the first.
    fireEvent.dragStart(grip(formHeader), { dataTransfer });
    fireEvent.drop(document.getElementById('designer-form-0') as HTMLElement, { dataTransfer });
    expect(within(table).getAllByRole('rowheader')[0]?.textContent).toContain('활력 징후');
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(within(table).getAllByRole('rowheader')[0]?.textContent).toContain('인구학');
  });

  it('edits the study settings: the unscheduled visit’s forms and a parameter, saved with the draft', async () => {
    const { saved } = serve();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '임상시험 설정' }));
    const unscheduled = screen.getByRole('region', { name: '비정기 방문' });
    expect(unscheduled.textContent).toContain('비정기 방문이 없습니다');
    fireEvent.click(within(unscheduled).getByRole('checkbox', { name: '인구학' }));
    expect((within(unscheduled).getByLabelText('이름 (영어)') as HTMLInputElement).value).toBe(
      'Unscheduled visit',
    );
    const parameters = screen.getByRole('region', { name: '매개변수' });
    fireEvent.change(within(parameters).getByLabelText('키'), { target: { value: '9bad' } });
    fireEvent.click(within(parameters).getByRole('button', { name: '매개변수 추가' }));
    expect(within(parameters).getByRole('textbox', { name: '키' }).getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(within(parameters).getByLabelText('키'), { target: { value: 'maxAge' } });
    fireEvent.click(within(parameters).getByRole('button', { name: '매개변수 추가' }));
    fireEvent.change(within(parameters).getByLabelText('maxAge: 값'), { target: { value: '80' } });
    await waitFor(() => expect(saved.length).toBeGreaterThan(0), { timeout: 4000 });
    const last = saved.at(-1)?.definition as unknown as Record<string, unknown>;
    expect(last.unscheduledVisit).toEqual({
      label: { ko: '비정기 방문', en: 'Unscheduled visit' },
      forms: ['demo'],
    });
    expect(last.parameters).toEqual({ maxAge: { value: 80, label: { ko: 'maxAge', en: 'maxAge' } } });
  });

  it('lists the problems of a refused publish, each leading to its element', async () => {
    serve({ refuse: true });
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: '추적의 인구학' }));
    await screen.findByText(/초안 저장됨 · 개정 1/, undefined, { timeout: 4000 });
    fireEvent.click(screen.getByRole('button', { name: '배포' }));
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
    const notice = screen.getByRole('note');
    expect(notice.textContent).toContain('프로토콜 변경으로만');
    expect(within(notice).getByRole('link', { name: '프로토콜 변경' }).getAttribute('href')).toBe(
      '/design/4/amendments',
    );
    expect(screen.queryByRole('button', { name: '배포' })).toBeNull();
  });

  it("edits a live study's draft while an amendment is drafted, and sends its publish to the amendment", async () => {
    const { saved } = serve({ status: 'active', amendment: { id: 12, number: 'AM-01' } });
    renderPage();
    const cell = (await screen.findByRole('checkbox', { name: '선별의 인구학' })) as HTMLButtonElement;
    expect(cell.disabled).toBe(false);
    expect(screen.getByRole('note').textContent).toContain('AM-01');
    expect(screen.queryByRole('button', { name: '배포' })).toBeNull();
    expect(screen.getByRole('link', { name: '프로토콜 변경 AM-01 보기' }).getAttribute('href')).toBe(
      '/design/4/amendments/12',
    );
    fireEvent.click(cell);
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 5_000 });
  });

  it('refuses a member without the design ability', async () => {
    serve({ abilities: ['subject.read'] });
    renderPage();
    expect(await screen.findByText(/설계 권한이 없습니다/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
