import { type SummaryResponse, subjectStatuses } from '@cdms/contract';
import type { ChartData } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { STACKED_COUNT_BAR_OPTIONS } from '../../../components/chart-options.ts';
import {
  DataTable,
  type DataTableColumn,
  sortedValueColumn,
} from '../../../components/data-table/data-table.tsx';
import { SUBJECT_STATUS_COLORS } from '../../../components/status-colors.ts';
import { SummaryChart } from './summary-chart.tsx';
import { SummaryPanel } from './summary-parts.tsx';

/** A line of the table: a site, or the total beneath them. */
interface StatusLine {
  key: string;
  label: string;
  counts: Record<(typeof subjectStatuses)[number], number>;
}

/** Subjects by status and site: one stacked bar per site, the statuses in workflow order, and the table. */
export function StatusSection({ data }: { data: SummaryResponse }) {
  const { t } = useTranslation('summary');
  const siteCode = new Map(data.sites.map((site) => [site.siteId, site.siteCode]));
  const chart = useMemo(
    (): ChartData<'bar', number[], string> => ({
      labels: data.statusBySite.map((line) => siteCode.get(line.siteId) ?? String(line.siteId)),
      datasets: subjectStatuses.map((status) => ({
        label: t(`statuses.${status}`),
        data: data.statusBySite.map((line) => line.counts[status]),
        backgroundColor: SUBJECT_STATUS_COLORS[status],
      })),
    }),
    [data, siteCode, t],
  );
  const totals = Object.fromEntries(
    subjectStatuses.map((status) => [
      status,
      data.statusBySite.reduce((sum, line) => sum + line.counts[status], 0),
    ]),
  ) as Record<(typeof subjectStatuses)[number], number>;
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const description = data.statusBySite
    .map(
      (line) =>
        `${siteCode.get(line.siteId)}: ${subjectStatuses.map((status) => `${t(`statuses.${status}`)} ${line.counts[status]}`).join(', ')}`,
    )
    .join('; ');
  return (
    <SummaryPanel title={t('status.title')}>
      <SummaryChart
        chart={chart}
        options={STACKED_COUNT_BAR_OPTIONS}
        label={t('status.chartSummary', { description })}
      >
        <DataTable<StatusLine>
          id="summary-status"
          label={t('status.table')}
          columns={[
            sortedValueColumn('site', t('site'), (line) => line.label, { rowHeader: true, hideable: false }),
            ...subjectStatuses.map(
              (status): DataTableColumn<StatusLine> => ({
                id: status,
                header: t(`statuses.${status}`),
                numeric: true,
                hideable: false,
                sortValue: (line) => line.counts[status],
                cell: (line) => line.counts[status],
              }),
            ),
            {
              id: 'total',
              header: t('total'),
              numeric: true,
              hideable: false,
              sortValue: (line) => sum(line.counts),
              cell: (line) =>
                line.key === 'total' ? (
                  <span data-testid="summary-subject-total">{sum(line.counts)}</span>
                ) : (
                  sum(line.counts)
                ),
            },
          ]}
          rows={data.statusBySite.map((line) => ({
            key: String(line.siteId),
            label: siteCode.get(line.siteId) ?? String(line.siteId),
            counts: line.counts,
          }))}
          rowKey={(line) => line.key}
          footerRows={[{ key: 'total', label: t('total'), counts: totals }]}
          sorting={{ mode: 'client' }}
        />
      </SummaryChart>
    </SummaryPanel>
  );
}
