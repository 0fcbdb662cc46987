import { kriKeys, type MonitoringResponse, type SignalListResponse } from '@cdms/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { i18n } from '../../../i18n/i18n.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { monitoringAnswer, signal } from './monitoring-fixtures.ts';
import { MonitoringPage } from './monitoring-page.tsx';

vi.mock('../../../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client.ts')>()),
  apiRequest: vi.fn(),
}));

// The canvas is Chart.js's; what matters is which chart the detail asks for, with what data.
vi.mock('react-chartjs-2', () => {
  const chart =
    (kind: string) =>
    ({ data }: { data: { labels: string[]; datasets: { data: number[] }[] } }) => (
      <div data-testid="signal-chart" data-kind={kind} data-values={data.datasets[0]?.data.join(',')} />
    );
  return { Bar: chart('bar'), Line: chart('line') };
});

interface Served {
  page: MonitoringResponse;
  signals: SignalListResponse;
  posts: { path: string; method: string; body: unknown }[];
}

/** The server: the page, the signal list, and every write recorded (answering `{ queryIds }` to a raise). */
function serve(served: Served) {
  vi.mocked(apiRequest).mockImplementation(
    async (path: string, options?: { method?: string; body?: unknown }) => {
      if (options?.method) {
        served.posts.push({ path, method: options.method, body: options.body });
        if (path.endsWith('/queries')) return { queryIds: [1, 2, 3, 4, 5, 6] };
        return {};
      }
      if (path === '/api/auth/me') return { user: null };
      if (path === '/api/studies/1/monitoring') return served.page;
      if (path.startsWith('/api/studies/1/monitoring/signals?')) return served.signals;
      throw new Error(`unexpected ${path}`);
    },
  );
}

function renderPage(url = '/monitoring/1?menu-type=CRA') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ModalStackProvider>
          <AlertDialogProvider>
            <MemoryRouter initialEntries={[url]}>
              <Routes>
                <Route path="/monitoring/:studyId" element={<MonitoringPage />} />
              </Routes>
            </MemoryRouter>
          </AlertDialogProvider>
        </ModalStackProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('the central monitoring page', () => {
  let served: Served;
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    served = {
      page: monitoringAnswer(),
      signals: { items: [signal()], total: 1, page: 1, size: 20 },
      posts: [],
    };
    serve(served);
  });
  afterEach(() => {
    cleanup();
    vi.mocked(apiRequest).mockReset();
  });

  it('shows each site × indicator with its light in words, what it is made of, and the study value', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: /Key risk indicators per site/ });
    const rowB = within(table).getByRole('row', { name: /^02 부산병원/ });
    expect(within(rowB).getByText('12.5')).toBeTruthy();
    expect(within(rowB).getAllByText('Past the limit').length).toBeGreaterThan(0);
    expect(within(rowB).getAllByText('3 / 2').length).toBeGreaterThan(0);
    expect(within(table).getByText('All sites')).toBeTruthy();
    // The chosen indicator's trend per site, drawn as a small line with its points read out.
    expect(within(table).getAllByRole('img', { name: /Query rate at 01/ }).length).toBe(1);
  });

  it('lists signals with the URL filters and raises items × subjects queries from one, then reads again', async () => {
    renderPage('/monitoring/1?menu-type=CRA&kind=digitPreference');
    const row = await screen.findByRole('button', { name: 'Site 02: systolic pressures end in 0' });
    expect(apiRequest).toHaveBeenCalledWith(
      '/api/studies/1/monitoring/signals?state=active&page=1&size=20&kind=digitPreference',
    );
    fireEvent.click(row);
    const detail = await screen.findByRole('dialog');
    expect(within(detail).getByText('Chi-square test p < 0.001')).toBeTruthy();
    expect(within(detail).getByRole('rowheader', { name: 'Chi-square' })).toBeTruthy();
    expect(within(detail).getByText('41.25')).toBeTruthy();
    const chart = await within(detail).findByTestId('signal-chart');
    expect(chart.dataset.kind).toBe('bar');
    const formLinks = within(detail).getAllByRole('link', { name: /WEEK1 · Systolic/ });
    expect(formLinks[0]?.getAttribute('href')).toContain('/subject-list/subject/subject-detail/1?');

    const callsBefore = vi.mocked(apiRequest).mock.calls.length;
    fireEvent.click(within(detail).getByRole('button', { name: 'Raise queries' }));
    const raise = await screen.findByRole('dialog', { name: 'Raise queries from the signal' });
    // Two items × three subjects.
    expect(within(raise).getByText(/6 queries will be raised/)).toBeTruthy();
    fireEvent.change(within(raise).getByLabelText('Query text'), {
      target: { value: 'Please check the source.' },
    });
    fireEvent.click(within(raise).getByRole('button', { name: 'Raise queries' }));
    await waitFor(() =>
      expect(served.posts).toEqual([
        {
          path: '/api/studies/1/monitoring/signals/11/queries',
          method: 'POST',
          body: { text: 'Please check the source.' },
        },
      ]),
    );
    expect(await screen.findByText('6 queries raised.')).toBeTruthy();
    await waitFor(() => expect(vi.mocked(apiRequest).mock.calls.length).toBeGreaterThan(callsBefore + 1));
  });

  it('asks a reason before it dismisses a signal', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Site 02: systolic pressures end in 0' }));
    const detail = await screen.findByRole('dialog');
    fireEvent.click(within(detail).getByRole('button', { name: 'Dismiss' }));
    const dismiss = await screen.findByRole('dialog', { name: 'Dismiss the signal' });
    fireEvent.click(within(dismiss).getByRole('button', { name: 'Dismiss' }));
    expect(await within(dismiss).findByText('Enter a reason.')).toBeTruthy();
    expect(served.posts).toEqual([]);
    fireEvent.change(within(dismiss).getByLabelText('Reason'), { target: { value: 'Calibrated device' } });
    fireEvent.click(within(dismiss).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() =>
      expect(served.posts).toEqual([
        {
          path: '/api/studies/1/monitoring/signals/11/dismiss',
          method: 'POST',
          body: { reason: 'Calibrated device' },
        },
      ]),
    );
  });

  it('saves tolerance limits with a required reason', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit tolerance limits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit tolerance limits' });
    fireEvent.change(within(dialog).getByLabelText('Query rate · Limit'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    // The limit lies on the safe side of the warning: refused before anything is sent.
    expect(await within(dialog).findByText(/the limit must lie beyond the warning/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Query rate · Limit'), { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    expect(await within(dialog).findByText('Enter a reason.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason for the change'), {
      target: { value: 'Sponsor review' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(served.posts).toHaveLength(1));
    const [post] = served.posts;
    expect(post?.method).toBe('PUT');
    expect(post?.path).toBe('/api/studies/1/monitoring/tolerance-limits');
    const body = post?.body as { limits: { key: string; limit: number }[]; reason: string };
    expect(body.reason).toBe('Sponsor review');
    expect(body.limits.find((limit) => limit.key === 'queryRate')?.limit).toBe(12);
    expect(body.limits).toHaveLength(kriKeys.length);
  });

  it('shows a site user the indicators only: no signal list, no limits editor, no recompute', async () => {
    served.page = monitoringAnswer({ canActOnSignals: false, canManageLimits: false });
    renderPage();
    await screen.findByRole('table', { name: /Key risk indicators per site/ });
    expect(screen.getByText(/Signals are reviewed by monitors/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit tolerance limits' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Recompute now' })).toBeNull();
    expect(vi.mocked(apiRequest).mock.calls.some(([path]) => String(path).includes('/signals'))).toBe(false);
  });

  it('starts a recomputation', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Recompute now' }));
    await waitFor(() =>
      expect(served.posts).toEqual([
        { path: '/api/studies/1/monitoring/runs', method: 'POST', body: undefined },
      ]),
    );
  });
});
