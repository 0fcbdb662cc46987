import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n.ts';
import { RegistrationPanel } from './registration-panel.tsx';

// The canvas is Chart.js's; what matters here is which chart the panel asks for and with what data.
vi.mock('react-chartjs-2', () => {
  const chart =
    (kind: string) =>
    ({ data }: { data: { datasets: { data: number[] }[] } }) => (
      <div data-testid="chart" data-kind={kind} data-counts={data.datasets[0]?.data.join(',')} />
    );
  return { Bar: chart('bar'), Line: chart('line') };
});

describe('the monthly registration chart', () => {
  afterEach(cleanup);

  it('draws each month as a bar — a whole count, not a point on a smooth curve', async () => {
    await i18n.changeLanguage('en');
    render(
      <RegistrationPanel
        registrations={{
          siteId: null,
          months: [
            { month: '2026-09', count: 3 },
            { month: '2026-10', count: 0 },
            { month: '2026-11', count: 5 },
          ],
        }}
        sites={[]}
        siteId={null}
        onSiteChange={vi.fn()}
        problem={null}
      />,
    );
    // The chart's module loads lazily (dashboard-charts.tsx): it shows once that has resolved.
    const chart = await screen.findByTestId('chart');
    expect(chart.dataset.kind).toBe('bar');
    expect(chart.dataset.counts).toBe('3,0,5');
  });
});
