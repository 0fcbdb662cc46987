import type { RowData } from '@tanstack/react-table';
import type { ChartData, ChartOptions } from 'chart.js';
import type { ReactNode } from 'react';
import { Bar } from 'react-chartjs-2';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import '../lib/chart-setup.ts';
import styles from './summary.module.css';

/**
 * A section's bar chart beside its table of the same figures. The chart is an image whose label reads the
 * figures out, so a screen reader hears what the bars show; the table (children) sits to its side.
 */
export function SummaryChart({
  chart,
  options,
  label,
  children,
}: {
  chart: ChartData<'bar'>;
  options: ChartOptions<'bar'>;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.chartAndTable}>
      <div className={styles.chartArea}>
        <Bar data={chart} options={options} role="img" aria-label={label} />
      </div>
      {children}
    </div>
  );
}

/** The first column of a by-visit table: the visit names the row, and is always shown. */
export function visitColumn<Row extends RowData>(
  header: string,
  cell: (row: Row) => ReactNode,
): DataTableColumn<Row> {
  return { id: 'visit', header, rowHeader: true, hideable: false, className: styles.visitName, cell };
}
