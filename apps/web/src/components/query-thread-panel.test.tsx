import type { QueryAbilities, QueryDetail } from '@cdms/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type ReactNode, useEffect, useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../i18n/i18n.ts';
import { apiRequest } from '../lib/api-client.ts';
import { AlertDialogProvider } from './alert-dialog.tsx';
import { ModalStackProvider, useModalStack } from './modal-stack-provider.tsx';
import {
  type AnswerCorrection,
  QUERY_THREAD_MODAL,
  QueryThreadPanel,
  type QueryThreadPanelProps,
} from './query-thread-panel.tsx';
import { ToastProvider } from './toast.tsx';

vi.mock('../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/api-client.ts')>()),
  apiRequest: vi.fn(),
}));

const none: QueryAbilities = { answer: false, comment: false, close: false, cancel: false, reopen: false };

function detail(overrides: Partial<QueryDetail> = {}): QueryDetail {
  const opened = {
    id: 1,
    kind: 'opened' as const,
    text: { ko: '맥박 값을 확인하세요.', en: 'Please check the pulse.' },
    author: { userId: 4, name: '김모니', role: 'CRA' as const },
    at: '2026-03-02T05:07:00Z',
    proposedValue: null,
  };
  return {
    id: 7,
    kind: 'manual',
    state: 'open',
    reopened: false,
    assignee: 'site',
    subject: { pk: 3, subjectId: 'S01-003', registrationNumber: null, siteId: 1, site: '01' },
    visitKey: 'v1',
    formKey: 'vitalSigns',
    itemPath: 'v1.vitalSigns.heartRate',
    visitLabel: { ko: 'V1', en: 'V1' },
    formLabel: { ko: '활력 징후', en: 'Vital signs' },
    itemLabel: { ko: '맥박', en: 'Heart rate' },
    checkId: null,
    openedAt: '2026-03-02T05:07:00Z',
    ageDays: 3,
    closedAt: null,
    messageCount: 1,
    lastMessage: opened,
    messages: [opened],
    checkStillFails: false,
    abilities: none,
    ...overrides,
  };
}

function Opener({ children }: { children: ReactNode }) {
  const modals = useModalStack();
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    if (!modals.isOpen(QUERY_THREAD_MODAL)) modals.open(QUERY_THREAD_MODAL);
  }, [modals]);
  return children;
}

function renderPanel(props: Partial<QueryThreadPanelProps> = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ModalStackProvider>
          <AlertDialogProvider>
            <Opener>
              <QueryThreadPanel
                studyId={1}
                context="S01-003 · V1 · 활력 징후 · 맥박"
                queries={[
                  { id: 7, state: 'open', text: '맥박 값을 확인하세요.', openedAt: '2026-03-02T05:07:00Z' },
                ]}
                {...props}
              />
            </Opener>
          </AlertDialogProvider>
        </ModalStackProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

/** The server: GET of the query answers `current`; a POST answers what `onPost` returns. */
function serve(current: QueryDetail, onPost: (path: string, body: unknown) => unknown = () => current) {
  vi.mocked(apiRequest).mockImplementation(
    async (path: string, options?: { method?: string; body?: unknown }) => {
      if (options?.method === 'POST') return onPost(path, options.body);
      return current;
    },
  );
}

const buttonNames = () =>
  within(screen.getByRole('dialog'))
    .queryAllByRole('button')
    .map((button) => button.textContent);

describe('QueryThreadPanel', () => {
  beforeEach(() => vi.mocked(apiRequest).mockReset());
  afterEach(cleanup);

  it('shows the thread: author with role, time in UTC+9, text', async () => {
    serve(detail());
    renderPanel();
    const dialog = await screen.findByRole('dialog', { name: '쿼리' });
    expect(await within(dialog).findByText('김모니 (CRA)')).toBeTruthy();
    expect(dialog.querySelector('time')?.textContent).toBe('2026-03-02 14:07');
    expect(within(dialog).getAllByText('맥박 값을 확인하세요.').length).toBeGreaterThan(0);
    expect(apiRequest).toHaveBeenCalledWith('/api/studies/1/queries/7');
  });

  it('offers a site user only answer and comment when the abilities say so', async () => {
    serve(detail({ abilities: { ...none, answer: true, comment: true } }));
    renderPanel();
    await screen.findByText('김모니 (CRA)');
    expect(buttonNames()).toEqual(expect.arrayContaining(['답변', '코멘트']));
    for (const name of ['종료', '쿼리 취소', '재오픈']) expect(buttonNames()).not.toContain(name);
  });

  it('offers a monitor close, reopen and cancel on an answered query, and no answer', async () => {
    serve(
      detail({
        state: 'answered',
        abilities: { ...none, comment: true, close: true, cancel: true, reopen: true },
      }),
    );
    renderPanel();
    await screen.findByText('김모니 (CRA)');
    expect(buttonNames()).toEqual(expect.arrayContaining(['종료', '쿼리 취소', '재오픈', '코멘트']));
    expect(buttonNames()).not.toContain('답변');
  });

  it('shows no message box at all without abilities', async () => {
    serve(detail());
    renderPanel();
    await screen.findByText('김모니 (CRA)');
    expect(screen.queryByLabelText('메시지')).toBeNull();
  });

  it('asks for a reason before closing a system query whose check still fails', async () => {
    const current = detail({
      kind: 'system',
      checkId: 'hr-range',
      checkStillFails: true,
      state: 'answered',
      abilities: { ...none, close: true, reopen: true },
    });
    serve(current, () => ({ ...current, state: 'closed', abilities: none }));
    renderPanel();
    await screen.findByText('김모니 (CRA)');
    fireEvent.click(screen.getByRole('button', { name: '종료' }));
    expect((await screen.findByRole('alert')).textContent).toContain('종료 사유');
    expect(vi.mocked(apiRequest).mock.calls.some(([, options]) => options?.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('메시지'), { target: { value: '원자료 확인, 값이 맞음' } });
    fireEvent.click(screen.getByRole('button', { name: '종료' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith('/api/studies/1/queries/7/close', {
        method: 'POST',
        body: { text: '원자료 확인, 값이 맞음' },
      }),
    );
  });

  it('closes a manual query without a reason', async () => {
    const current = detail({ state: 'answered', abilities: { ...none, close: true } });
    serve(current, () => ({ ...current, state: 'closed', abilities: none }));
    renderPanel();
    await screen.findByText('김모니 (CRA)');
    fireEvent.click(screen.getByRole('button', { name: '종료' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith('/api/studies/1/queries/7/close', { method: 'POST', body: {} }),
    );
  });

  it('saves the correction through the form first, then answers with the saved value', async () => {
    const current = detail({ abilities: { ...none, answer: true, comment: true } });
    const order: string[] = [];
    serve(current, (path) => {
      order.push(path);
      return { ...current, state: 'answered', abilities: none };
    });
    const correction: AnswerCorrection = {
      pending: { before: '180', after: '80' },
      save: vi.fn(async () => {
        order.push('form save');
        return { value: 80 };
      }),
      edit: vi.fn(),
    };
    renderPanel({ correction });
    await screen.findByText('김모니 (CRA)');
    expect(screen.getByRole('note').textContent).toContain('180 → 80');
    fireEvent.change(screen.getByLabelText('메시지'), { target: { value: '입력 오류를 수정함' } });
    fireEvent.click(screen.getByRole('button', { name: '양식 저장 후 답변' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith('/api/studies/1/queries/7/answer', {
        method: 'POST',
        body: { text: '입력 오류를 수정함', proposedValue: 80 },
      }),
    );
    expect(order).toEqual(['form save', '/api/studies/1/queries/7/answer']);
  });

  it('does not answer when the form was not saved (reason dialog dismissed)', async () => {
    serve(detail({ abilities: { ...none, answer: true } }));
    const correction: AnswerCorrection = {
      pending: { before: '180', after: '80' },
      save: vi.fn(async () => null),
      edit: vi.fn(),
    };
    renderPanel({ correction });
    await screen.findByText('김모니 (CRA)');
    fireEvent.change(screen.getByLabelText('메시지'), { target: { value: '수정함' } });
    fireEvent.click(screen.getByRole('button', { name: '양식 저장 후 답변' }));
    await waitFor(() => expect(correction.save).toHaveBeenCalled());
    expect(vi.mocked(apiRequest).mock.calls.some(([, options]) => options?.method === 'POST')).toBe(false);
  });

  it('lets a monitor raise a query: text required, counter shown', async () => {
    const raised = detail({ id: 9 });
    serve(raised, () => raised);
    renderPanel({
      queries: [],
      raise: { subjectPk: 3, visitKey: 'v1', formKey: 'vitalSigns', itemPath: 'v1.vitalSigns.heartRate' },
    });
    const text = await screen.findByLabelText('쿼리 내용');
    expect(screen.getByText('0 / 2000자')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '쿼리 발행' }));
    expect((await screen.findByRole('alert')).textContent).toBe('메시지를 입력하세요.');
    fireEvent.change(text, { target: { value: '단위를 확인하세요' } });
    expect(screen.getByText('9 / 2000자')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '쿼리 발행' }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith('/api/studies/1/queries', {
        method: 'POST',
        body: {
          subjectPk: 3,
          visitKey: 'v1',
          formKey: 'vitalSigns',
          itemPath: 'v1.vitalSigns.heartRate',
          text: '단위를 확인하세요',
          assignee: 'site',
        },
      }),
    );
  });
});
