import type { ChartOptions } from 'chart.js';

/**
 * The stacked bar chart of the summary and report pages: counts stacked per bar, whole-number ticks
 * from zero, the legend beneath. No animation — the bars are read as figures, not watched grow; and
 * one object, so every chart of counts looks the same.
 */
export const STACKED_COUNT_BAR_OPTIONS: ChartOptions<'bar'> = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
  plugins: { legend: { position: 'bottom' } },
};
