import type { HearingChange, HearingStats, SummaryResponse } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import styles from './summary.module.css';
import { SummaryChart, visitColumn } from './summary-chart.tsx';
import { decibels, groupLabel, SummaryPanel, useLanguage } from './summary-parts.tsx';

/** A row of the hearing table: one measure of a visit (and group). */
interface StatsRow {
  key: string;
  visit: string;
  group: string | null;
  stats: HearingStats;
  everyone: boolean;
}

/** A row of the change table: one measure's change (of a group, or of everyone). */
interface ChangeRow {
  key: string;
  group: string | null;
  entry: HearingChange;
  everyone: boolean;
}
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
      <SummaryChart chart={chart} options={options} label={t('hearing.chartSummary', { description })}>
        <DataTable<StatsRow>
          id="summary-hearing"
          label={t('hearing.table')}
          columns={[
            visitColumn<StatsRow>(t('visit'), (row) => row.visit),
            ...(split
              ? [{ id: 'group', header: t('group'), hideable: false, cell: (row: StatsRow) => row.group }]
              : []),
            {
              id: 'measure',
              header: t('hearing.measure'),
              hideable: false,
              cell: (row) => t(`hearing.measures.${row.stats.measure}`),
            },
            {
              id: 'n',
              header: t('hearing.subjects'),
              numeric: true,
              hideable: false,
              cell: (row) => row.stats.n,
            },
            {
              id: 'mean',
              header: t('hearing.meanColumn'),
              numeric: true,
              hideable: false,
              cell: (row) => decibels(row.stats.mean),
            },
            {
              id: 'median',
              header: t('hearing.medianColumn'),
              numeric: true,
              hideable: false,
              cell: (row) => decibels(row.stats.median),
            },
          ]}
          rows={lines.flatMap((line) => line.stats.map((stats) => ({ ...line, stats })))}
          rowKey={(row) => `${row.key}-${row.stats.measure}`}
          rowClassName={(row) => (split && row.everyone ? styles.totalRow : undefined)}
        />
      </SummaryChart>
      {change ? (
        <>
          <h3 className={styles.subTitle}>
            {t('hearing.changeTitle', {
              from: change.fromVisit.visitLabel[language],
              to: change.toVisit.visitLabel[language],
            })}
          </h3>
          <DataTable<ChangeRow>
            id="summary-hearing-change"
            label={t('hearing.changeTable')}
            columns={[
              {
                id: 'measure',
                header: t('hearing.measure'),
                rowHeader: true,
                hideable: false,
                cell: (row) => t(`hearing.measures.${row.entry.measure}`),
              },
              ...(split
                ? [{ id: 'group', header: t('group'), hideable: false, cell: (row: ChangeRow) => row.group }]
                : []),
              {
                id: 'n',
                header: t('hearing.subjects'),
                numeric: true,
                hideable: false,
                cell: (row) => row.entry.n,
              },
              {
                id: 'from',
                header: t('hearing.meanAt', { visit: change.fromVisit.visitLabel[language] }),
                numeric: true,
                hideable: false,
                cell: (row) => decibels(row.entry.meanFrom),
              },
              {
                id: 'to',
                header: t('hearing.meanAt', { visit: change.toVisit.visitLabel[language] }),
                numeric: true,
                hideable: false,
                cell: (row) => decibels(row.entry.meanTo),
              },
              {
                id: 'change',
                header: t('hearing.meanChange'),
                numeric: true,
                hideable: false,
                cell: (row) =>
                  `${row.entry.meanChange !== null && row.entry.meanChange > 0 ? '+' : ''}${decibels(row.entry.meanChange)}`,
              },
            ]}
            rows={changeLines.flatMap((line) =>
              line.changes.map((entry: HearingChange) => ({ ...line, entry })),
            )}
            rowKey={(row) => `${row.key}-${row.entry.measure}`}
            rowClassName={(row) => (split && row.everyone ? styles.totalRow : undefined)}
          />
        </>
      ) : null}
    </SummaryPanel>
  );
}
