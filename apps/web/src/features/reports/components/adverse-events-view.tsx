import type { AdverseEventsReport } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { seriesColor } from '../../../lib/chart-colors.ts';
import { ReportBarChart } from './report-bar-chart.tsx';
import { listingPager, Panel, siteAndSubjectColumns, useLanguage } from './report-parts.tsx';
import styles from './reports.module.css';

export function AdverseEventsView({
  data,
  busy,
  studyId,
}: {
  data: AdverseEventsReport;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const chart = useMemo(
    (): ChartData<'bar', number[], string> => ({
      labels: data.interest.map((line) => line.visitLabel[language]),
      datasets: data.interestEvents.map((event, index) => ({
        label: event.label[language],
        data: data.interest.map((line) => line.counts[event.key] ?? 0),
        backgroundColor: seriesColor(index),
      })),
    }),
    [data, language],
  );
  const options = useMemo(
    (): ChartOptions<'bar'> => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { position: 'bottom' } },
    }),
    [],
  );
  const label = (value: { label: { ko: string; en: string } } | null) =>
    value ? value.label[language] : '–';
  const summary = data.interest
    .map(
      (line) =>
        `${line.visitLabel[language]}: ${data.interestEvents
          .map((event) => `${event.label[language]} ${line.counts[event.key] ?? 0}`)
          .join(', ')}`,
    )
    .join('; ');
  return (
    <div className={styles.views}>
      <DataTable<AdverseEventsReport['rows'][number]>
        id="report-adverse-events"
        label={t('reports.adverseEvents.name')}
        columns={[
          ...siteAndSubjectColumns<AdverseEventsReport['rows'][number]>(t, studyId),
          { id: 'number', header: t('adverseEvents.number'), numeric: true, cell: (row) => row.eventNumber },
          { id: 'term', header: t('adverseEvents.term'), hideable: false, cell: (row) => row.term ?? '–' },
          { id: 'startDate', header: t('adverseEvents.startDate'), cell: (row) => row.startDate ?? '–' },
          { id: 'endDate', header: t('adverseEvents.endDate'), cell: (row) => row.endDate ?? '–' },
          {
            id: 'serious',
            header: t('adverseEvents.serious'),
            cell: (row) =>
              row.serious ? (
                <span className={styles.badge} data-tone="danger">
                  {t('adverseEvents.sae')}
                </span>
              ) : (
                t('adverseEvents.notSerious')
              ),
          },
          { id: 'severity', header: t('adverseEvents.severity'), cell: (row) => label(row.severity) },
          { id: 'causality', header: t('adverseEvents.causality'), cell: (row) => label(row.causality) },
          { id: 'action', header: t('adverseEvents.action'), cell: (row) => label(row.deviceAction) },
          { id: 'outcome', header: t('adverseEvents.outcome'), cell: (row) => label(row.outcome) },
        ]}
        rows={data.rows}
        rowKey={(row) => `${row.subjectPk}-${row.eventNumber}`}
        rowClassName={(row) => (row.serious ? styles.seriousRow : undefined)}
        busy={busy}
        emptyMessage={t('empty')}
        pager={listingPager(data)}
      />
      {data.interestEvents.length > 0 && (
        <Panel title={t('adverseEvents.interest.title')}>
          <div className={styles.twoColumns}>
            <ReportBarChart
              chart={chart}
              options={options}
              label={t('adverseEvents.interest.chartSummary', { summary })}
            />
            <DataTable<AdverseEventsReport['interest'][number]>
              id="report-events-of-interest"
              // Another name than the panel's: two landmarks may not share one.
              label={t('adverseEvents.interest.table')}
              columns={[
                {
                  id: 'visit',
                  header: t('columns.visit'),
                  hideable: false,
                  cell: (line) => line.visitLabel[language],
                },
                {
                  id: 'forms',
                  header: t('adverseEvents.interest.forms'),
                  numeric: true,
                  hideable: false,
                  cell: (line) => line.forms,
                },
                ...data.interestEvents.map(
                  (event): DataTableColumn<AdverseEventsReport['interest'][number]> => ({
                    id: `event-${event.key}`,
                    header: event.label[language],
                    numeric: true,
                    hideable: false,
                    cell: (line) => line.counts[event.key] ?? 0,
                  }),
                ),
              ]}
              rows={data.interest}
              rowKey={(line) => line.visitKey}
              busy={busy}
              emptyMessage={t('empty')}
            />
          </div>
        </Panel>
      )}
    </div>
  );
}
