import type { Signal } from '@cdms/contract';
import { seriesColor } from '../../../lib/chart-colors.ts';
import { type Localized, localized } from './indicators.ts';

/** What a signal's chart draws, in the reader's language: its labels and one dataset per series. */
export interface SignalChartData {
  labels: string[];
  datasets: { label: string; data: (number | null)[]; backgroundColor: string; borderColor: string }[];
}

export function signalChartData(chart: Signal['chart'], language: string): SignalChartData {
  return {
    labels: chart.labels,
    datasets: chart.series.map((series, index) => ({
      label: localized(series.name as Localized, language),
      data: series.values,
      backgroundColor: seriesColor(index),
      borderColor: seriesColor(index),
    })),
  };
}

/** The chart as text, for its accessible name: each series' values by label. */
export function signalChartSummary(data: SignalChartData): string {
  return data.datasets
    .map(
      (dataset) =>
        `${dataset.label}: ${data.labels.map((label, index) => `${label} ${dataset.data[index] ?? '—'}`).join(', ')}`,
    )
    .join('; ');
}
