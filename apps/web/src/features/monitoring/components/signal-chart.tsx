import type { ChartOptions } from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import '../lib/chart-setup.ts';
import type { SignalChartData } from '../lib/signal-chart-data.ts';

/**
 * A signal's small chart, the only part of the page that needs Chart.js: the detail loads this
 * module lazily. Bars for categories (digits, weekdays, sites' means), a line for a subject's series.
 */
export function SignalChart({
  kind,
  data,
  label,
}: {
  kind: 'bars' | 'series';
  data: SignalChartData;
  label: string;
}) {
  const options: ChartOptions<'bar' | 'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    plugins: { legend: { display: data.datasets.length > 1, position: 'bottom' } },
    scales: { y: { beginAtZero: kind === 'bars' } },
  };
  return kind === 'bars' ? (
    <Bar data={data} options={options as ChartOptions<'bar'>} role="img" aria-label={label} />
  ) : (
    <Line
      data={{
        ...data,
        datasets: data.datasets.map((dataset) => ({ ...dataset, spanGaps: false, tension: 0 })),
      }}
      options={options as ChartOptions<'line'>}
      role="img"
      aria-label={label}
    />
  );
}
