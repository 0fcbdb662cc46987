import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { doneRun, panelAnswer } from './monitoring-fixtures.ts';
import { MonitoringPanel } from './monitoring-panel.tsx';

vi.mock('../../../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client.ts')>()),
  apiRequest: vi.fn(),
}));

function renderPanel() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/dashboard/1?menu-type=CRA']}>
        <MonitoringPanel studyId={1} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the dashboard monitoring panel', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.mocked(apiRequest).mockReset();
  });

  it('shows the top signals and the indicators past a limit, read from …/monitoring/panel', async () => {
    vi.mocked(apiRequest).mockResolvedValue(panelAnswer());
    renderPanel();
    const panel = await screen.findByTestId('monitoring-panel');
    expect(apiRequest).toHaveBeenCalledWith('/api/studies/1/monitoring/panel');
    expect(within(panel).getByRole('heading', { name: 'Central monitoring' })).toBeTruthy();
    const signalLink = await within(panel).findByRole('link', {
      name: 'Site 02: systolic pressures end in 0',
    });
    expect(signalLink.getAttribute('href')).toBe('/monitoring/1?menu-type=CRA&signal=11');
    expect(within(panel).getByText('Digit preference')).toBeTruthy();
    expect(within(panel).getByText('Strength 97%')).toBeTruthy();
    // The light is told in words as well as by colour and shape.
    expect(within(panel).getByText('Past the limit')).toBeTruthy();
    expect(within(panel).getByText('12.5')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Open the central monitoring page' })).toBeTruthy();
    expect(within(panel).getByText(/Computed at 2026-12-07 10:00/)).toBeTruthy();
  });

  it('says honestly that nothing is flagged', async () => {
    vi.mocked(apiRequest).mockResolvedValue(panelAnswer({ topSignals: [], flaggedIndicators: [] }));
    renderPanel();
    expect(await screen.findByText(/Nothing is flagged/)).toBeTruthy();
  });

  it('says nothing has been computed yet, and shows a running computation with its progress', async () => {
    vi.mocked(apiRequest).mockResolvedValue(
      panelAnswer({
        topSignals: [],
        flaggedIndicators: [],
        run: doneRun({ state: 'running', finishedAt: null, progress: { done: 3, total: 12 }, stale: true }),
      }),
    );
    renderPanel();
    expect(await screen.findByText('Nothing has been computed for this study yet.')).toBeTruthy();
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(screen.getByText('Data changed since; refreshing.')).toBeTruthy();
  });

  it('gives a site user no link to the page when the server says so', async () => {
    vi.mocked(apiRequest).mockResolvedValue(panelAnswer({ topSignals: [], canOpenPage: false }));
    renderPanel();
    await screen.findByText('Past the limit');
    expect(screen.queryByRole('link')).toBeNull();
  });
});
