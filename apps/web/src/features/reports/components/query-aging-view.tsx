import { type QueryAgeBucket, type QueryAgingReport, queryAgeBuckets } from '@cdms/contract';
import type { ChartData } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { STACKED_COUNT_BAR_OPTIONS } from '../../../components/chart-options.ts';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { ReportBarChart } from './report-bar-chart.tsx';
import { Panel } from './report-parts.tsx';
import styles from './reports.module.css';

interface AgingLine {
  key: string;
  label: string;
  line: QueryAgingReport['total'];
}

export function QueryAgingView({ data, busy }: { data: QueryAgingReport; busy: boolean }) {
  const { t } = useTranslation('reports');
  const chart = useMemo(
    (): ChartData<'bar', number[], string> => ({
      labels: queryAgeBuckets.map((bucket) => t('queryAging.bucket', { bucket })),
      datasets: [
        {
          label: t('queryAging.open'),
          data: queryAgeBuckets.map((bucket) => data.total.open[bucket]),
          backgroundColor: '#dc2626',
        },
        {
          label: t('queryAging.answered'),
          data: queryAgeBuckets.map((bucket) => data.total.answered[bucket]),
          backgroundColor: '#f59e0b',
        },
      ],
    }),
    [data, t],
  );
  const lines: AgingLine[] = data.sites.map((site) => ({
    key: String(site.siteId),
    label: site.siteCode,
    line: site,
  }));
  const totalLine: AgingLine = { key: 'total', label: t('totalRow'), line: data.total };
  const days = (value: number | null) => (value === null ? '–' : t('days', { count: value }));
  const bucketColumn = (state: 'open' | 'answered', bucket: QueryAgeBucket): DataTableColumn<AgingLine> => ({
    id: `${state}-${bucket}`,
    header: t(state === 'open' ? 'queryAging.openBucket' : 'queryAging.answeredBucket', { bucket }),
    numeric: true,
    hideable: false,
    sortValue: ({ line }) => line[state][bucket],
    cell: ({ line }) => line[state][bucket],
  });
  const medianColumn = (
    id: 'medianDaysToAnswer' | 'medianDaysToClose',
    header: string,
  ): DataTableColumn<AgingLine> => ({
    id,
    header,
    numeric: true,
    hideable: false,
    // No median yet sorts before any.
    sortValue: ({ line }) => line[id] ?? -1,
    cell: ({ line }) => days(line[id]),
  });
  const agingColumns: DataTableColumn<AgingLine>[] = [
    {
      id: 'site',
      header: t('columns.site'),
      hideable: false,
      sortValue: (line) => line.label,
      cell: (line) => line.label,
    },
    ...queryAgeBuckets.map((bucket) => bucketColumn('open', bucket)),
    ...queryAgeBuckets.map((bucket) => bucketColumn('answered', bucket)),
    medianColumn('medianDaysToAnswer', t('queryAging.medianToAnswer')),
    medianColumn('medianDaysToClose', t('queryAging.medianToClose')),
  ];
  const summary = queryAgeBuckets
    .map((bucket) => `${bucket}: ${data.total.open[bucket]} / ${data.total.answered[bucket]}`)
    .join(', ');
  return (
    <div className={styles.views}>
      <Panel title={t('queryAging.chartTitle')}>
        <ReportBarChart
          chart={chart}
          options={STACKED_COUNT_BAR_OPTIONS}
          label={t('queryAging.chartSummary', { summary })}
        />
      </Panel>
      <DataTable<AgingLine>
        id="report-query-aging"
        label={t('queryAging.table')}
        columns={agingColumns}
        rows={lines}
        rowKey={(line) => line.key}
        footerRows={[totalLine]}
        sorting={{ mode: 'client' }}
        busy={busy}
        emptyMessage={t('empty')}
      />
    </div>
  );
}
