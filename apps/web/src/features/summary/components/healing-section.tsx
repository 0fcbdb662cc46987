import type { SummaryResponse } from '@cdms/contract';
import type { ChartData } from 'chart.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { STACKED_COUNT_BAR_OPTIONS } from '../../../components/chart-options.ts';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { seriesColor } from '../../../lib/chart-colors.ts';
import styles from './summary.module.css';
import { SummaryChart, visitColumn } from './summary-chart.tsx';
import { groupLabel, SummaryPanel, useLanguage } from './summary-parts.tsx';

/** A line of the table: a visit, or a visit's group (split), or a visit's every subject. */
interface HealingLine {
  key: string;
  visit: string;
  group: string | null;
  counts: Record<string, number>;
  everyone: boolean;
}

/**
 * Healing outcome by visit: a stacked bar per visit (per visit and group when the answer is split),
 * segments per outcome, and the table of the same counts.
 */
export function HealingSection({ data }: { data: SummaryResponse }) {
  const { t } = useTranslation('summary');
  const language = useLanguage();
  const split = data.groups !== undefined;
  const lines = useMemo(
    () =>
      data.healing.visits.flatMap((visit) =>
        split
          ? [
              ...(visit.byGroup ?? []).map((line) => ({
                key: `${visit.visitKey}-${line.group}`,
                visit: visit.visitLabel[language],
                group: groupLabel(data, line.group, language) as string | null,
                counts: line.counts,
                everyone: false,
              })),
              {
                key: visit.visitKey,
                visit: visit.visitLabel[language],
                group: t('everyone'),
                counts: visit.counts,
                everyone: true,
              },
            ]
          : [
              {
                key: visit.visitKey,
                visit: visit.visitLabel[language],
                group: null,
                counts: visit.counts,
                everyone: true,
              },
            ],
      ),
    [data, split, language, t],
  );
  // Split: the chart compares the groups; the table adds every subject's line.
  const bars = useMemo(() => (split ? lines.filter((line) => !line.everyone) : lines), [lines, split]);
  const chart = useMemo(
    (): ChartData<'bar', number[], string | string[]> => ({
      labels: bars.map((line) => (line.group ? [line.visit, line.group] : line.visit)),
      datasets: data.healing.outcomes.map((outcome, index) => ({
        label: outcome.label[language],
        data: bars.map((line) => line.counts[outcome.code] ?? 0),
        backgroundColor: seriesColor(index),
      })),
    }),
    [data, bars, language],
  );
  const description = lines
    .map(
      (line) =>
        `${line.visit}${line.group ? ` ${line.group}` : ''}: ${data.healing.outcomes
          .map((outcome) => `${outcome.label[language]} ${line.counts[outcome.code] ?? 0}`)
          .join(', ')}`,
    )
    .join('; ');
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  return (
    <SummaryPanel title={t('healing.title')} note={split ? t('healing.splitNote') : t('healing.note')}>
      <SummaryChart
        chart={chart}
        options={STACKED_COUNT_BAR_OPTIONS}
        label={t('healing.chartSummary', { description })}
      >
        <DataTable<HealingLine>
          id="summary-healing"
          label={t('healing.table')}
          columns={[
            visitColumn<HealingLine>(t('visit'), (line) => line.visit),
            ...(split
              ? [
                  {
                    id: 'group',
                    header: t('group'),
                    hideable: false,
                    cell: (line: HealingLine) => line.group,
                  },
                ]
              : []),
            ...data.healing.outcomes.map(
              (outcome): DataTableColumn<HealingLine> => ({
                id: outcome.code,
                header: outcome.label[language],
                numeric: true,
                hideable: false,
                cell: (line) => line.counts[outcome.code] ?? 0,
              }),
            ),
            {
              id: 'total',
              header: t('total'),
              numeric: true,
              hideable: false,
              cell: (line) => total(line.counts),
            },
          ]}
          rows={lines}
          rowKey={(line) => line.key}
          rowClassName={(line) => (split && line.everyone ? styles.totalRow : undefined)}
        />
      </SummaryChart>
    </SummaryPanel>
  );
}
