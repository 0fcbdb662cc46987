import type { HearingChange, HearingStats, SummaryResponse } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { ListTable, listStyles } from '../../../components/list-page.tsx';
import '../lib/chart-setup.ts';
import styles from './summary.module.css';
import { decibels, groupLabel, SummaryPanel, useLanguage } from './summary-parts.tsx';

const numeric = listStyles.numeric;
const MEASURE_COLORS = { airAverage: '#2563eb', boneAverage: '#9333ea' } as const;

/**
 * Hearing (PTA averages) by visit: the mean air and bone averages as bars per visit (and group when
 * the answer is split), the table with n, mean and median, and the change between the first and the
 * last visit with a PTA for the subjects measured at both.
 */
export function HearingSection({ data }: { data: SummaryResponse }) {
  const { t } = useTranslation('summary');
  const language = useLanguage();
  const split = data.groups !== undefined;
  const lines = useMemo(
    () =>
      data.hearing.visits.flatMap((visit) => [
        ...(split
          ? (visit.byGroup ?? []).map((line) => ({
              key: `${visit.visitKey}-${line.group}`,
              visit: visit.visitLabel[language],
              group: groupLabel(data, line.group, language) as string | null,
              stats: line.stats,
              everyone: false,
            }))
          : []),
        {
          key: visit.visitKey,
          visit: visit.visitLabel[language],
          group: split ? t('everyone') : null,
          stats: visit.stats,
          everyone: true,
        },
      ]),
    [data, split, language, t],
  );
  const bars = useMemo(() => (split ? lines.filter((line) => !line.everyone) : lines), [lines, split]);
  const measures = data.hearing.visits[0]?.stats.map((stats) => stats.measure) ?? [];
  const chart = useMemo(
    (): ChartData<'bar', (number | null)[], string | string[]> => ({
      labels: bars.map((line) => (line.group ? [line.visit, line.group] : line.visit)),
      datasets: measures.map((measure) => ({
        label: t(`hearing.measures.${measure}`),
        data: bars.map((line) => line.stats.find((stats) => stats.measure === measure)?.mean ?? null),
        backgroundColor: MEASURE_COLORS[measure],
      })),
    }),
    [bars, measures, t],
  );
  const options = useMemo(
    (): ChartOptions<'bar'> => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { y: { beginAtZero: true, title: { display: true, text: t('hearing.axis') } } },
      plugins: { legend: { position: 'bottom' } },
    }),
    [t],
  );
  const statsText = (stats: HearingStats) =>
    `${t(`hearing.measures.${stats.measure}`)} n=${stats.n} ${t('hearing.mean')} ${decibels(stats.mean)}`;
  const description = bars
    .map(
      (line) => `${line.visit}${line.group ? ` ${line.group}` : ''}: ${line.stats.map(statsText).join(', ')}`,
    )
    .join('; ');
  const change = data.hearing.change;
  const changeLines = change
    ? [
        ...(split
          ? (change.byGroup ?? []).map((line) => ({
              key: line.group,
              group: groupLabel(data, line.group, language) as string | null,
              changes: line.changes,
              everyone: false,
            }))
          : []),
        { key: 'all', group: split ? t('everyone') : null, changes: change.overall, everyone: true },
      ]
    : [];
  return (
    <SummaryPanel title={t('hearing.title')} note={split ? t('hearing.splitNote') : t('hearing.note')}>
      <div className={styles.chartAndTable}>
        <div className={styles.chartArea}>
          <Bar
            data={chart}
            options={options}
            role="img"
            aria-label={t('hearing.chartSummary', { description })}
          />
        </div>
        <ListTable
          label={t('hearing.table')}
          busy={false}
          head={
            <>
              <th scope="col">{t('visit')}</th>
              {split ? <th scope="col">{t('group')}</th> : null}
              <th scope="col">{t('hearing.measure')}</th>
              <th scope="col" className={numeric}>
                {t('hearing.subjects')}
              </th>
              <th scope="col" className={numeric}>
                {t('hearing.meanColumn')}
              </th>
              <th scope="col" className={numeric}>
                {t('hearing.medianColumn')}
              </th>
            </>
          }
        >
          {lines.flatMap((line) =>
            line.stats.map((stats) => (
              <tr
                key={`${line.key}-${stats.measure}`}
                className={split && line.everyone ? styles.totalRow : undefined}
              >
                <th scope="row" className={styles.visitName}>
                  {line.visit}
                </th>
                {split ? <td>{line.group}</td> : null}
                <td>{t(`hearing.measures.${stats.measure}`)}</td>
                <td className={numeric}>{stats.n}</td>
                <td className={numeric}>{decibels(stats.mean)}</td>
                <td className={numeric}>{decibels(stats.median)}</td>
              </tr>
            )),
          )}
        </ListTable>
      </div>
      {change ? (
        <>
          <h3 className={styles.subTitle}>
            {t('hearing.changeTitle', {
              from: change.fromVisit.visitLabel[language],
              to: change.toVisit.visitLabel[language],
            })}
          </h3>
          <ListTable
            label={t('hearing.changeTable')}
            busy={false}
            head={
              <>
                <th scope="col">{t('hearing.measure')}</th>
                {split ? <th scope="col">{t('group')}</th> : null}
                <th scope="col" className={numeric}>
                  {t('hearing.subjects')}
                </th>
                <th scope="col" className={numeric}>
                  {t('hearing.meanAt', { visit: change.fromVisit.visitLabel[language] })}
                </th>
                <th scope="col" className={numeric}>
                  {t('hearing.meanAt', { visit: change.toVisit.visitLabel[language] })}
                </th>
                <th scope="col" className={numeric}>
                  {t('hearing.meanChange')}
                </th>
              </>
            }
          >
            {changeLines.flatMap((line) =>
              line.changes.map((entry: HearingChange) => (
                <tr
                  key={`${line.key}-${entry.measure}`}
                  className={split && line.everyone ? styles.totalRow : undefined}
                >
                  <th scope="row">{t(`hearing.measures.${entry.measure}`)}</th>
                  {split ? <td>{line.group}</td> : null}
                  <td className={numeric}>{entry.n}</td>
                  <td className={numeric}>{decibels(entry.meanFrom)}</td>
                  <td className={numeric}>{decibels(entry.meanTo)}</td>
                  <td className={numeric}>
                    {entry.meanChange !== null && entry.meanChange > 0 ? '+' : ''}
                    {decibels(entry.meanChange)}
                  </td>
                </tr>
              )),
            )}
          </ListTable>
        </>
      ) : null}
    </SummaryPanel>
  );
}
