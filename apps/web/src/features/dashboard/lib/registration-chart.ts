import type { ChartData, ChartOptions } from 'chart.js';

/** One month of the registration chart: `YYYY-MM` and the subjects whose consent fell in it. */
export interface MonthCount {
  month: string;
  count: number;
}

/**
 * The monthly registration chart draws each month as a bar: a month's count is a whole number of
 * subjects, not a point on a continuous quantity. The smooth line it was drawn with before suggested
 * values between the months and slopes where there were none (issue 43 item 8).
 */
export const REGISTRATION_CHART_TYPE = 'bar';

export function registrationChartData(
  months: readonly MonthCount[],
  seriesLabel: string,
): ChartData<typeof REGISTRATION_CHART_TYPE, number[], string> {
  return {
    labels: months.map((entry) => entry.month),
    datasets: [
      {
        label: seriesLabel,
        data: months.map((entry) => entry.count),
        backgroundColor: 'rgba(29, 78, 216, 0.78)',
        hoverBackgroundColor: '#1d4ed8',
        borderRadius: 3,
        // Thin bars for a few months would look like a gauge: keep them at most 4.8rem wide.
        maxBarThickness: 48,
      },
    ],
  };
}

export function registrationChartOptions(
  tooltipLabel: (count: number) => string,
): ChartOptions<typeof REGISTRATION_CHART_TYPE> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: { duration: 400 },
    interaction: { mode: 'index', intersect: false },
    scales: {
      x: { grid: { display: false } },
      y: { beginAtZero: true, ticks: { precision: 0 }, grid: { color: '#eef0f3' } },
    },
    plugins: {
      legend: { display: false },
      tooltip: {
        boxPadding: 4,
        callbacks: { label: (item) => ` ${tooltipLabel(item.parsed.y ?? 0)}` },
      },
    },
  };
}
