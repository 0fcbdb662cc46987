import { type SummaryResponse, subjectStatuses } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { ListTable, listStyles } from '../../../components/list-page.tsx';
import { SUBJECT_STATUS_COLORS } from '../../../components/status-colors.ts';
import '../lib/chart-setup.ts';
import styles from './summary.module.css';
import { SummaryPanel } from './summary-parts.tsx';

const numeric = listStyles.numeric;

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
  const options = useMemo(
    (): ChartOptions<'bar'> => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { position: 'bottom' } },
    }),
    [],
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
      <div className={styles.chartAndTable}>
        <div className={styles.chartArea}>
          <Bar
            data={chart}
            options={options}
            role="img"
            aria-label={t('status.chartSummary', { description })}
          />
        </div>
        <ListTable
          label={t('status.table')}
          busy={false}
          head={
            <>
              <th scope="col">{t('site')}</th>
              {subjectStatuses.map((status) => (
                <th key={status} scope="col" className={numeric}>
                  {t(`statuses.${status}`)}
                </th>
              ))}
              <th scope="col" className={numeric}>
                {t('total')}
              </th>
            </>
          }
        >
          {data.statusBySite.map((line) => (
            <tr key={line.siteId}>
              <th scope="row">{siteCode.get(line.siteId)}</th>
              {subjectStatuses.map((status) => (
                <td key={status} className={numeric}>
                  {line.counts[status]}
                </td>
              ))}
              <td className={numeric}>{sum(line.counts)}</td>
            </tr>
          ))}
          <tr className={styles.totalRow}>
            <th scope="row">{t('total')}</th>
            {subjectStatuses.map((status) => (
              <td key={status} className={numeric}>
                {totals[status]}
              </td>
            ))}
            <td className={numeric} data-testid="summary-subject-total">
              {sum(totals)}
            </td>
          </tr>
        </ListTable>
      </div>
    </SummaryPanel>
  );
}
