import type { MeasureChange, MeasureStats, SummaryResponse } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { seriesColor } from '../../../lib/chart-colors.ts';
import styles from './summary.module.css';
import { SummaryChart, visitColumn } from './summary-chart.tsx';
import { groupLabel, type Language, oneDecimal, SummaryPanel, useLanguage } from './summary-parts.tsx';

/** A row of the measures table: one measure of a visit (and group). */
interface StatsRow {
  key: string;
  visit: string;
  group: string | null;
  stats: MeasureStats;
  everyone: boolean;
}

/** A row of the change table: one measure's change (of a group, or of everyone). */
interface ChangeRow {
  key: string;
  group: string | null;
  entry: MeasureChange;
  everyone: boolean;
}

/** A measure's name: its item's label, with its unit when it has one. */
function measureNameOf(
  measures: SummaryResponse['keyMeasures']['measures'],
  key: string,
  language: Language,
): string {
  const measure = measures.find((entry) => entry.key === key);
  if (!measure) return key;
  return measure.unit ? `${measure.label[language]} (${measure.unit})` : measure.label[language];
}

/**
 * The study's key measures by visit: their means as bars per visit (and group when the answer is
 * split), the table with n, mean and median, and the change between the first and the last visit
 * collecting them for the subjects measured at both. Each measure is named by its item's label and unit.
 */
export function KeyMeasuresSection({ data }: { data: SummaryResponse }) {
  const { t } = useTranslation('summary');
  const language = useLanguage();
  const split = data.groups !== undefined;
  const lines = useMemo(
    () =>
      data.keyMeasures.visits.flatMap((visit) => [
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
  const measures = data.keyMeasures.measures;
  const measureName = (key: string) => measureNameOf(measures, key, language);
  // One axis title when every measure has the same unit; otherwise each label says its own.
  const units = [...new Set(measures.map((measure) => measure.unit))];
  const axisTitle = units.length === 1 && units[0] ? units[0] : '';
  const chart = useMemo(
    (): ChartData<'bar', (number | null)[], string | string[]> => ({
      labels: bars.map((line) => (line.group ? [line.visit, line.group] : line.visit)),
      datasets: measures.map((measure, index) => ({
        label: measureNameOf(measures, measure.key, language),
        data: bars.map((line) => line.stats.find((stats) => stats.measure === measure.key)?.mean ?? null),
        backgroundColor: seriesColor(index),
      })),
    }),
    [bars, measures, language],
  );
  const options = useMemo(
    (): ChartOptions<'bar'> => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { y: { beginAtZero: true, title: { display: axisTitle !== '', text: axisTitle } } },
      plugins: { legend: { position: 'bottom' } },
    }),
    [axisTitle],
  );
  const statsText = (stats: MeasureStats) =>
    `${measureName(stats.measure)} n=${stats.n} ${t('keyMeasures.mean')} ${oneDecimal(stats.mean)}`;
  const description = bars
    .map(
      (line) => `${line.visit}${line.group ? ` ${line.group}` : ''}: ${line.stats.map(statsText).join(', ')}`,
    )
    .join('; ');
  const change = data.keyMeasures.change;
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
    <SummaryPanel
      title={t('keyMeasures.title')}
      note={split ? t('keyMeasures.splitNote') : t('keyMeasures.note')}
    >
      <SummaryChart chart={chart} options={options} label={t('keyMeasures.chartSummary', { description })}>
        <DataTable<StatsRow>
          id="summary-key-measures"
          label={t('keyMeasures.table')}
          columns={[
            visitColumn<StatsRow>(t('visit'), (row) => row.visit),
            ...(split
              ? [{ id: 'group', header: t('group'), hideable: false, cell: (row: StatsRow) => row.group }]
              : []),
            {
              id: 'measure',
              header: t('keyMeasures.measure'),
              hideable: false,
              cell: (row) => measureName(row.stats.measure),
            },
            {
              id: 'n',
              header: t('keyMeasures.subjects'),
              numeric: true,
              hideable: false,
              cell: (row) => row.stats.n,
            },
            {
              id: 'mean',
              header: t('keyMeasures.meanColumn'),
              numeric: true,
              hideable: false,
              cell: (row) => oneDecimal(row.stats.mean),
            },
            {
              id: 'median',
              header: t('keyMeasures.medianColumn'),
              numeric: true,
              hideable: false,
              cell: (row) => oneDecimal(row.stats.median),
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
            {t('keyMeasures.changeTitle', {
              from: change.fromVisit.visitLabel[language],
              to: change.toVisit.visitLabel[language],
            })}
          </h3>
          <DataTable<ChangeRow>
            id="summary-key-measures-change"
            label={t('keyMeasures.changeTable')}
            columns={[
              {
                id: 'measure',
                header: t('keyMeasures.measure'),
                rowHeader: true,
                hideable: false,
                cell: (row) => measureName(row.entry.measure),
              },
              ...(split
                ? [{ id: 'group', header: t('group'), hideable: false, cell: (row: ChangeRow) => row.group }]
                : []),
              {
                id: 'n',
                header: t('keyMeasures.subjects'),
                numeric: true,
                hideable: false,
                cell: (row) => row.entry.n,
              },
              {
                id: 'from',
                header: t('keyMeasures.meanAt', { visit: change.fromVisit.visitLabel[language] }),
                numeric: true,
                hideable: false,
                cell: (row) => oneDecimal(row.entry.meanFrom),
              },
              {
                id: 'to',
                header: t('keyMeasures.meanAt', { visit: change.toVisit.visitLabel[language] }),
                numeric: true,
                hideable: false,
                cell: (row) => oneDecimal(row.entry.meanTo),
              },
              {
                id: 'change',
                header: t('keyMeasures.meanChange'),
                numeric: true,
                hideable: false,
                cell: (row) =>
                  `${row.entry.meanChange !== null && row.entry.meanChange > 0 ? '+' : ''}${oneDecimal(row.entry.meanChange)}`,
              },
            ]}
            rows={changeLines.flatMap((line) =>
              line.changes.map((entry: MeasureChange) => ({ ...line, entry })),
            )}
            rowKey={(row) => `${row.key}-${row.entry.measure}`}
            rowClassName={(row) => (split && row.everyone ? styles.totalRow : undefined)}
          />
        </>
      ) : null}
    </SummaryPanel>
  );
}
