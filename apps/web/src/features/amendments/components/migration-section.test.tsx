import type { AmendmentMigrationsResponse, AmendmentResponse } from '@cdms/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../i18n/i18n.ts';
import { renderAmendmentPages } from './render-page.tsx';
import { migration, serve, summary } from './test-server.ts';

/** AM-01, published: site S01 approved from 2026-12-10, S02 without a date. */
const published: AmendmentResponse = {
  amendment: summary({
    status: 'published',
    publishedBy: { userId: 1, name: '데이터 관리자', at: '2026-12-11T00:00:00.000Z' },
    contentHash: 'a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468',
  }),
  declarations: {},
  draftRevision: null,
  changeSet: null,
  definitionProblems: 0,
  publishBlocker: null,
};

/** Site S01's automatic job running (12 of 30 done: 10 moved, 1 held, 1 failed), an earlier subject's done. */
const running: AmendmentMigrationsResponse = {
  subjects: { onFromVersion: 18, onToVersion: 13 },
  migrations: [
    migration({
      id: 2,
      scope: 'site',
      target: 'S01',
      status: 'running',
      automatic: true,
      requestedBy: null,
      total: 30,
      migrated: 10,
      held: 1,
      failed: 1,
      failures: [{ subjectId: 'S01-004', message: '체온은 34.0~42.0이어야 합니다.' }],
    }),
    migration({
      id: 1,
      scope: 'subject',
      target: 'S02-001',
      status: 'done',
      total: 1,
      migrated: 1,
      finishedAt: '2026-12-11T01:00:30.000Z',
    }),
  ],
};

/** The same once S01's job has ended. */
const finished: AmendmentMigrationsResponse = {
  subjects: { onFromVersion: 2, onToVersion: 29 },
  migrations: [
    {
      ...(running.migrations[0] as (typeof running.migrations)[number]),
      status: 'done',
      migrated: 28,
      finishedAt: '2026-12-11T02:00:00.000Z',
    },
    running.migrations[1] as (typeof running.migrations)[number],
  ],
};

const idle: AmendmentMigrationsResponse = { subjects: { onFromVersion: 31, onToVersion: 0 }, migrations: [] };

const migrationsRead = (reads: string[]) =>
  reads.filter((read) => read === '/api/studies/4/amendments/7/migrations').length;

/** Confirms the shared confirm dialog's question, checking it names what is started. */
async function confirmStart(question: RegExp) {
  const prompt = await screen.findByRole('alertdialog');
  expect(prompt.textContent).toMatch(question);
  fireEvent.click(within(prompt).getByRole('button', { name: '이관 시작' }));
}

describe('the migration of a published amendment', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the subjects by version, each site’s date, and each job’s scope, starter, status, progress and failures', async () => {
    serve({ amendment: published, migrations: [finished] });
    renderAmendmentPages('/design/4/amendments/7');
    const section = (await screen.findByRole('heading', { name: '대상자 이관' })).closest(
      'section',
    ) as HTMLElement;
    expect(await within(section).findByText('이전 버전(1.0.0)에 남은 대상자')).toBeTruthy();
    expect(within(section).getByText('2명')).toBeTruthy();
    expect(within(section).getByText('새 버전(1.1.0)의 대상자')).toBeTruthy();
    expect(within(section).getByText('29명')).toBeTruthy();
    // Each site's approval date and what it starts.
    expect(within(section).getByText(/IRB 승인일 2026-12-10/)).toBeTruthy();
    expect(within(section).getByText(/IRB 승인일 없음: 저절로 시작하지 않습니다/)).toBeTruthy();

    const table = within(section).getByRole('table', { name: /^이관 작업/ });
    const rows = within(table).getAllByRole('row').slice(1);
    const site = rows[0] as HTMLElement;
    expect(within(site).getByText('기관 S01')).toBeTruthy();
    expect(within(site).getByText('자동 (기관의 IRB 승인일)')).toBeTruthy();
    expect(within(site).getByText('완료')).toBeTruthy();
    const bar = within(site).getByRole('progressbar', { name: '진행: 기관 S01' });
    expect(bar.getAttribute('aria-valuenow')).toBe('30');
    expect(bar.getAttribute('aria-valuemax')).toBe('30');
    expect(within(site).getByText('30 / 30명 처리')).toBeTruthy();
    expect(within(site).getByText('이관 28 · 대기 1 · 실패 1')).toBeTruthy();
    expect(site.textContent).toContain('2026-12-11 11:00');
    // The failure beneath its job: the subject and why.
    expect(within(table).getByRole('heading', { name: '실패: 기관 S01' })).toBeTruthy();
    expect(within(table).getByText('S01-004').closest('li')?.textContent).toBe(
      'S01-004 체온은 34.0~42.0이어야 합니다.',
    );
    const subject = rows.find((row) => row.textContent?.includes('대상자 S02-001')) as HTMLElement;
    expect(subject.textContent).toContain('데이터 관리자 · 2026-12-11 10:00');
    // What held means.
    expect(within(section).getByText(/대기: 변경이 닿는 양식이 프리징되거나 잠겨 있어/)).toBeTruthy();
  });

  it('reads the jobs every 2 s while one is running, and stops once all are done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { reads } = serve({ amendment: published, migrations: [running, finished] });
    renderAmendmentPages('/design/4/amendments/7');
    const bar = await screen.findByRole('progressbar', { name: '진행: 기관 S01' });
    expect(bar.getAttribute('aria-valuenow')).toBe('12');
    expect(screen.getByText('진행 중')).toBeTruthy();
    expect(migrationsRead(reads)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() =>
      expect(screen.getByRole('progressbar', { name: '진행: 기관 S01' }).getAttribute('aria-valuenow')).toBe(
        '30',
      ),
    );
    expect(migrationsRead(reads)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(migrationsRead(reads)).toBe(2);
  });

  it('starts a job for every subject once confirmed, then reads the jobs again', async () => {
    const { sent, reads } = serve({ amendment: published, migrations: [idle] });
    renderAmendmentPages('/design/4/amendments/7');
    expect(await screen.findByText('아직 이관 작업이 없습니다.')).toBeTruthy();
    const before = migrationsRead(reads);
    fireEvent.click(screen.getByRole('button', { name: '지금 모든 대상자 이관' }));
    await confirmStart(/스터디의 모든 대상자를 지금 새 버전\(1\.1\.0\)으로 이관할까요\?/);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: 'POST',
      path: '/api/studies/4/amendments/7/migrations',
      body: { scope: 'study' },
    });
    await waitFor(() => expect(migrationsRead(reads)).toBeGreaterThan(before));
  });

  it('sends nothing when the question is declined', async () => {
    const { sent } = serve({ amendment: published, migrations: [idle] });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: '지금 모든 대상자 이관' }));
    const prompt = await screen.findByRole('alertdialog');
    fireEvent.click(within(prompt).getByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sent).toHaveLength(0);
  });

  it('starts one site’s job, chosen among the amendment’s sites', async () => {
    const { sent } = serve({ amendment: published, migrations: [idle] });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.change(await screen.findByLabelText('기관'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: '이 기관 대상자 이관' }));
    await confirmStart(/기관 S02 부산병원의 대상자를/);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toEqual({ scope: 'site', siteId: 2 });
  });

  it('starts one subject’s job by its screening number, found through the subject list', async () => {
    const { sent, reads } = serve({
      amendment: published,
      migrations: [idle],
      subjects: [
        { pk: 30, subjectId: 'S01-0031' },
        { pk: 31, subjectId: 'S01-003' },
      ],
    });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.change(await screen.findByLabelText('스크리닝 번호'), { target: { value: ' s01-003 ' } });
    fireEvent.click(screen.getByRole('button', { name: '이 대상자 이관' }));
    await confirmStart(/대상자 S01-003의 데이터를/);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(reads).toContain('/api/studies/4/subjects?search=S01-003&page=1&size=100');
    expect(sent[0]?.body).toEqual({ scope: 'subject', subjectId: 31 });
  });

  it('says so when no subject has the screening number, and sends nothing', async () => {
    const { sent } = serve({
      amendment: published,
      migrations: [idle],
      subjects: [{ pk: 30, subjectId: 'S01-0031' }],
    });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.change(await screen.findByLabelText('스크리닝 번호'), { target: { value: 'S01-003' } });
    fireEvent.click(screen.getByRole('button', { name: '이 대상자 이관' }));
    expect(await screen.findByText('이 스크리닝 번호의 대상자가 없습니다: S01-003')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('shows a refused start under its control', async () => {
    serve({
      amendment: published,
      migrations: [idle],
      refusal: {
        status: 409,
        code: 'migration_running',
        message: '같은 범위의 이관 작업이 이미 대기 중이거나 진행 중입니다.',
      },
    });
    renderAmendmentPages('/design/4/amendments/7');
    fireEvent.click(await screen.findByRole('button', { name: '지금 모든 대상자 이관' }));
    await confirmStart(/이관할까요/);
    const alert = await screen.findByText('같은 범위의 이관 작업이 이미 대기 중이거나 진행 중입니다.');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.parentElement?.contains(screen.getByRole('button', { name: '지금 모든 대상자 이관' }))).toBe(
      true,
    );
  });
});
