import type { ChartData, ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import '../lib/chart-setup.ts';
import styles from './reports.module.css';

/**
 * A report's bar chart in its chart area: an image whose label reads the figures out, so a screen reader
 * hears what the bars show (the table beside or below holds the same figures).
 */
export function ReportBarChart({
  chart,
  options,
  label,
}: {
  chart: ChartData<'bar'>;
  options: ChartOptions<'bar'>;
  label: string;
}) {
  return (
    <div className={styles.chartArea}>
      <Bar data={chart} options={options} role="img" aria-label={label} />
    </div>
  );
}
