import type { ChartData, ChartOptions } from 'chart.js';
import { Bar, Doughnut } from 'react-chartjs-2';
import '../lib/chart-setup.ts';
import { centreTextPlugin } from '../lib/centre-text-plugin.ts';

/**
 * The dashboard's canvases, the only part of the page that needs Chart.js (63 kB gzip, a third of
 * the page's JavaScript): the panels load this module with React.lazy once they have figures to
 * draw, so the page, its figures as text and its controls come first (issue 43 item 12).
 */

export function RegistrationChart({
  data,
  options,
  label,
}: {
  data: ChartData<'bar', number[], string>;
  options: ChartOptions<'bar'>;
  label: string;
}) {
  return <Bar data={data} options={options} role="img" aria-label={label} />;
}

export function StatusDoughnutChart({
  data,
  options,
  label,
}: {
  data: ChartData<'doughnut', number[], string>;
  options: ChartOptions<'doughnut'>;
  label: string;
}) {
  return (
    <Doughnut data={data} options={options} plugins={[centreTextPlugin]} role="img" aria-label={label} />
  );
}
