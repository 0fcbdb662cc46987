import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { StudyCreateDialog } from './study-create-dialog.tsx';

const user = (id: number, name: string, email: string, active = true) => ({
  id,
  email,
  name,
  contact: '',
  locale: 'ko',
  active,
  isAdmin: false,
  lockedUntil: null,
  lastLoginAt: null,
  createdAt: '2026-11-20T00:00:00Z',
  secondFactorEnrolled: false,
});

/** The server: the users to choose members from, and the study creation (its body kept). */
function serve() {
  const bodies: unknown[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname;
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/api/admin/users')
      return json({
        users: [
          user(2, '김코디', 'crc@demo.cdms'),
          user(3, '정데이', 'dm@demo.cdms'),
          user(4, '퇴직자', 'gone@demo.cdms', false),
        ],
      });
    if (path === '/api/admin/studies' && init?.method === 'POST') {
      bodies.push(JSON.parse(String(init.body)));
      return json({ id: 5 }, 201);
    }
    return json({ error: { code: 'not_found', message: 'not found' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return bodies;
}

function renderDialog(onOpenChange = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <StudyCreateDialog onOpenChange={onOpenChange} />
    </QueryClientProvider>,
  );
  return onOpenChange;
}

async function fillStudy(dialog: HTMLElement) {
  fireEvent.change(within(dialog).getByLabelText('임상시험 코드'), { target: { value: 'FMT-2027' } });
  fireEvent.change(within(dialog).getByLabelText('제목(한국어)'), { target: { value: '번호 형식 연구' } });
}

describe('the new-study dialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends the formats, the sites and the first members with the study', async () => {
    const bodies = serve();
    const onOpenChange = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: '새 임상시험' });
    await fillStudy(dialog);
    const screening = within(dialog).getByLabelText('스크리닝 번호 형식');
    expect((screening as HTMLInputElement).value).toBe('S{site}-{seq:3}');
    fireEvent.change(screening, { target: { value: 'SCR-{site}-{seq:4}' } });
    expect(within(dialog).getByText('기관 01의 첫 번호는 SCR-01-0001입니다.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: '기관 추가' }));
    fireEvent.change(within(dialog).getByLabelText('1번째 기관의 기관 코드'), { target: { value: 'HBU' } });
    fireEvent.change(within(dialog).getByLabelText('1번째 기관의 기관명'), {
      target: { value: '한빛대학교병원' },
    });
    fireEvent.change(within(dialog).getByLabelText('1번째 기관의 기관 번호'), { target: { value: '01' } });

    fireEvent.click(within(dialog).getByRole('button', { name: '구성원 추가' }));
    const userSelect = within(dialog).getByLabelText('1번째 구성원의 사용자');
    await within(userSelect).findByText('김코디 (crc@demo.cdms)');
    // Deactivated accounts are not offered.
    expect(within(userSelect).queryByText('퇴직자 (gone@demo.cdms)')).toBeNull();
    fireEvent.change(userSelect, { target: { value: 'crc@demo.cdms' } });
    // A CRC needs a site: the submit says so before asking the server.
    fireEvent.click(within(dialog).getByRole('button', { name: '임상시험 만들기' }));
    expect(await within(dialog).findByText('이 역할에는 기관을 하나 이상 선택하세요.')).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'HBU' }));

    fireEvent.change(within(dialog).getByLabelText('무작위 배정'), { target: { value: 'off' } });
    expect(within(dialog).queryByLabelText('무작위 배정 번호 형식')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: '임상시험 만들기' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(bodies).toEqual([
      expect.objectContaining({
        code: 'FMT-2027',
        screeningNumberFormat: 'SCR-{site}-{seq:4}',
        randomizationEnabled: false,
        sites: [{ code: 'HBU', name: '한빛대학교병원', institutionNumber: '01' }],
        members: [{ email: 'crc@demo.cdms', role: 'CRC', siteCodes: ['HBU'] }],
      }),
    ]);
  });

  it('shows what is wrong with a format, in the reader’s language, and sends nothing', async () => {
    const bodies = serve();
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: '새 임상시험' });
    await fillStudy(dialog);
    fireEvent.change(within(dialog).getByLabelText('무작위 배정 번호 형식'), {
      target: { value: 'R-{seq:3}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '임상시험 만들기' }));
    expect(
      await within(dialog).findByText(
        '형식에 {site}가 한 번 들어가야 합니다. 일련번호는 기관마다 따로 셉니다.',
      ),
    ).toBeTruthy();
    expect(bodies).toEqual([]);
  });
});
