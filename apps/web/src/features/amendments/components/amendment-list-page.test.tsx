import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { renderAmendmentPages } from './render-page.tsx';
import { serve, summary } from './test-server.ts';

const published = summary({
  id: 3,
  number: 'AM-00',
  status: 'published',
  reason: '방문 창 조정',
  fromVersion: '0.9.0',
  toVersion: '1.0.0',
  openedBy: { userId: 2, name: '연구 관리자', at: '2026-11-02T15:10:00.000Z' },
  publishedBy: { userId: 2, name: '연구 관리자', at: '2026-11-05T01:00:00.000Z' },
  contentHash: 'a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468',
});

describe('AmendmentListPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the amendments with their status in words, versions, reason, who opened and published them when (UTC+9)', async () => {
    serve({ amendments: [summary({ status: 'discarded' }), published] });
    renderAmendmentPages('/design/4/amendments');
    await screen.findByRole('link', { name: 'AM-00' });
    const table = screen.getByRole('table', { name: /^스터디의 프로토콜 변경/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'AM-01폐기됨1.0.0 → 1.1.0활력 징후 양식 개정데이터 관리자 · 2026-12-01 10:30—',
      'AM-00배포됨0.9.0 → 1.0.0방문 창 조정연구 관리자 · 2026-11-03 00:10연구 관리자 · 2026-11-05 10:00',
    ]);
    // The published one's badge: the shared amendment status badge, in words.
    const badge = within(rows[1] as HTMLElement).getByText('배포됨');
    expect(badge.getAttribute('data-status')).toBe('published');
    expect(within(table).getByRole('columnheader', { name: '배포' })).toBeTruthy();
    expect(
      within(rows[1] as HTMLElement)
        .getByRole('link', { name: 'AM-00' })
        .getAttribute('href'),
    ).toBe('/design/4/amendments/3');
    // No draft open on a live study: a new one can be opened.
    expect(screen.getByRole('button', { name: '새 프로토콜 변경' })).toBeTruthy();
  });

  it('offers no new amendment while a draft is open, and links to the draft', async () => {
    serve({ amendments: [summary(), published] });
    renderAmendmentPages('/design/4/amendments');
    await screen.findByRole('link', { name: 'AM-00' });
    expect(screen.queryByRole('button', { name: '새 프로토콜 변경' })).toBeNull();
    expect(screen.getByText(/작성 중인 프로토콜 변경이 있습니다/)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'AM-01' }).map((link) => link.getAttribute('href'))).toEqual([
      '/design/4/amendments/7',
      '/design/4/amendments/7',
    ]);
  });

  it('offers no new amendment when the study is not live', async () => {
    serve({ amendments: [published], studyStatus: 'ended' });
    renderAmendmentPages('/design/4/amendments');
    await screen.findByRole('link', { name: 'AM-00' });
    expect(screen.queryByRole('button', { name: '새 프로토콜 변경' })).toBeNull();
    expect(screen.getByText(/이 스터디는 운영 중이 아닙니다/)).toBeTruthy();
  });

  it('opens an amendment with its number, reason and sites’ dates, then goes to its page', async () => {
    const { sent } = serve({ amendments: [published] });
    const router = renderAmendmentPages('/design/4/amendments');
    fireEvent.click(await screen.findByRole('button', { name: '새 프로토콜 변경' }));
    const dialog = await screen.findByRole('dialog', { name: '새 프로토콜 변경' });
    fireEvent.change(within(dialog).getByLabelText('변경 번호'), { target: { value: ' AM-02 ' } });
    fireEvent.change(within(dialog).getByLabelText('S02 부산병원'), { target: { value: '20261215' } });
    fireEvent.change(within(dialog).getByLabelText('프로토콜 변경 사유'), {
      target: { value: '이상사례 양식 추가' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '프로토콜 변경 열기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/design/4/amendments/9'));
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/studies/4/amendments',
        body: {
          number: 'AM-02',
          reason: '이상사례 양식 추가',
          sites: [
            { siteId: 1, effectiveOn: null },
            { siteId: 2, effectiveOn: '2026-12-15' },
          ],
        },
      },
    ]);
  });

  it('shows the server’s refusal in the dialog and stays on the list', async () => {
    const { sent } = serve({
      amendments: [published],
      refusal: { status: 409, code: 'amendment_number_taken', message: '이미 쓰인 변경 번호입니다.' },
    });
    const router = renderAmendmentPages('/design/4/amendments');
    fireEvent.click(await screen.findByRole('button', { name: '새 프로토콜 변경' }));
    const dialog = await screen.findByRole('dialog', { name: '새 프로토콜 변경' });
    fireEvent.change(within(dialog).getByLabelText('변경 번호'), { target: { value: 'AM-00' } });
    fireEvent.change(within(dialog).getByLabelText('프로토콜 변경 사유'), { target: { value: '사유' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '프로토콜 변경 열기' }));
    expect(await within(dialog).findByText('이미 쓰인 변경 번호입니다.')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/design/4/amendments');
  });

  it('sends nothing while the number is missing or a date is not a day', async () => {
    const { sent } = serve({ amendments: [published] });
    renderAmendmentPages('/design/4/amendments');
    fireEvent.click(await screen.findByRole('button', { name: '새 프로토콜 변경' }));
    const dialog = await screen.findByRole('dialog', { name: '새 프로토콜 변경' });
    fireEvent.change(within(dialog).getByLabelText('S01 서울병원'), { target: { value: '2026-02-30' } });
    fireEvent.change(within(dialog).getByLabelText('프로토콜 변경 사유'), { target: { value: '사유' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '프로토콜 변경 열기' }));
    expect(await within(dialog).findByText('변경 번호를 입력하세요.')).toBeTruthy();
    expect(within(dialog).getByText('날짜를 YYYY-MM-DD로 입력하거나 비워 두세요.')).toBeTruthy();
    expect(sent).toEqual([]);
  });
});
