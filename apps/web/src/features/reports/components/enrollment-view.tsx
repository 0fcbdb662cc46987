import type { EnrollmentReport } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo, useState } from 'react';
import { Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import {
  DataTable,
  type DataTableColumn,
  sortedValueColumn,
} from '../../../components/data-table/data-table.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useMe } from '../../../lib/me.ts';
import { cumulative } from '../lib/report-filters.ts';
import {
  ENROLLMENT_TARGET_MODAL,
  EnrollmentTargetDialog,
  type TargetSite,
} from './enrollment-target-dialog.tsx';
import styles from './reports.module.css';
import '../lib/chart-setup.ts';
import { Panel, useLanguage } from './report-parts.tsx';

interface EnrollmentLine {
  key: string;
  label: string;
  screened: number;
  screeningFailures: number;
  randomized: number;
  target: number;
  /** A site's line: its id and whether its target is the study's default. */
  site?: { siteId: number; targetIsDefault: boolean };
}

export function EnrollmentView({
  data,
  busy,
  studyId,
}: {
  data: EnrollmentReport;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const modals = useModalStack();
  const me = useMe();
  // Data management sets each site's target (`enrollment.plan`); the server decides, the page follows.
  const canPlan =
    me.data?.memberships.find((m) => m.studyId === studyId)?.abilities.includes('enrollment.plan') ?? false;
  const [editing, setEditing] = useState<TargetSite | null>(null);
  const target = data.sites.reduce((sum, site) => sum + site.target, 0);
  const chart = useMemo((): ChartData<'line', number[], string> => {
    const months = data.months.map((month) => month.month);
    return {
      labels: months,
      datasets: [
        {
          label: t('enrollment.screened'),
          data: cumulative(data.months.map((month) => month.screened)),
          borderColor: '#1d4ed8',
          backgroundColor: '#1d4ed8',
        },
        {
          label: t('enrollment.randomized'),
          data: cumulative(data.months.map((month) => month.randomized)),
          borderColor: '#059669',
          backgroundColor: '#059669',
        },
        {
          label: t('enrollment.target'),
          data: months.map(() => target),
          borderColor: '#9ca3af',
          backgroundColor: '#9ca3af',
          borderDash: [6, 4],
          pointRadius: 0,
        },
      ],
    };
  }, [data, target, t]);
  const options = useMemo(
    (): ChartOptions<'line'> => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { position: 'bottom' } },
    }),
    [],
  );
  const last = data.months.length;
  const totals = data.sites.reduce(
    (sum, site) => ({
      screened: sum.screened + site.screened,
      screeningFailures: sum.screeningFailures + site.screeningFailures,
      randomized: sum.randomized + site.randomized,
    }),
    { screened: 0, screeningFailures: 0, randomized: 0 },
  );
  const percent = (randomized: number, goal: number) =>
    goal > 0 ? `${Math.round((randomized / goal) * 100)}%` : '–';
  const siteLines: EnrollmentLine[] = data.sites.map((site) => ({
    key: String(site.siteId),
    label: `${site.siteCode} ${site.siteName}`,
    screened: site.screened,
    screeningFailures: site.screeningFailures,
    randomized: site.randomized,
    target: site.target,
    site: { siteId: site.siteId, targetIsDefault: site.targetIsDefault },
  }));
  const totalLine: EnrollmentLine = { key: 'total', label: t('totalRow'), ...totals, target };
  const count = (
    id: 'screened' | 'screeningFailures' | 'randomized' | 'target',
  ): DataTableColumn<EnrollmentLine> => ({
    id,
    header: t(`enrollment.${id}`),
    numeric: true,
    hideable: false,
    sortValue: (line) => line[id],
    cell: (line) => line[id],
  });
  const siteColumns: DataTableColumn<EnrollmentLine>[] = [
    sortedValueColumn('site', t('columns.site'), (line) => line.label, { hideable: false }),
    count('screened'),
    count('screeningFailures'),
    count('randomized'),
    {
      ...count('target'),
      cell: (line) => (
        <span className={styles.targetCell}>
          {/* The number last, so it lines up with the total beneath. */}
          {canPlan && line.site ? (
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('target.edit', { site: line.label })}
              onClick={() => {
                setEditing({
                  siteId: line.site?.siteId ?? 0,
                  label: line.label,
                  target: line.target,
                  targetIsDefault: line.site?.targetIsDefault ?? true,
                });
                modals.open(ENROLLMENT_TARGET_MODAL);
              }}
            >
              {t('target.editShort')}
            </Button>
          ) : null}
          {line.site?.targetIsDefault ? (
            <span className={styles.defaultMark}>{t('target.defaultMark')}</span>
          ) : null}
          {line.target}
        </span>
      ),
    },
    {
      id: 'progress',
      header: t('enrollment.progress'),
      numeric: true,
      hideable: false,
      sortValue: (line) => (line.target > 0 ? line.randomized / line.target : 0),
      cell: (line) => percent(line.randomized, line.target),
    },
  ];
  type Month = EnrollmentReport['months'][number];
  const monthCount = (id: 'screened' | 'screeningFailures' | 'randomized'): DataTableColumn<Month> => ({
    id,
    header: t(`enrollment.${id}`),
    numeric: true,
    hideable: false,
    sortValue: (month) => month[id],
    cell: (month) => month[id],
  });
  const monthColumns: DataTableColumn<Month>[] = [
    sortedValueColumn('month', t('columns.month'), (month) => month.month, { hideable: false }),
    monthCount('screened'),
    monthCount('screeningFailures'),
    monthCount('randomized'),
  ];
  type FailureLine = EnrollmentReport['failureReasons'][number];
  const reasonLabel = (line: FailureLine) => (line.reason ? line.reason.label[language] : t('notEntered'));
  const failureColumns: DataTableColumn<FailureLine>[] = [
    sortedValueColumn('reason', t('enrollment.reason'), reasonLabel, { hideable: false }),
    sortedValueColumn('subjects', t('enrollment.subjects'), (line) => line.count, {
      numeric: true,
      hideable: false,
    }),
  ];
  return (
    <div className={styles.views}>
      <Panel title={t('enrollment.chartTitle')}>
        <div className={styles.chartArea}>
          {last === 0 ? (
            <p className={styles.loading}>{t('empty')}</p>
          ) : (
            <Line
              data={chart}
              options={options}
              role="img"
              aria-label={t('enrollment.chartSummary', {
                screened: totals.screened,
                randomized: totals.randomized,
                target,
              })}
            />
          )}
        </div>
      </Panel>
      <DataTable<EnrollmentLine>
        id="report-enrollment-sites"
        label={t('enrollment.bySite')}
        columns={siteColumns}
        rows={siteLines}
        rowKey={(line) => line.key}
        footerRows={[totalLine]}
        sorting={{ mode: 'client' }}
        busy={busy}
        emptyMessage={t('empty')}
      />
      <div className={styles.twoColumns}>
        <DataTable<EnrollmentReport['months'][number]>
          id="report-enrollment-months"
          label={t('enrollment.byMonth')}
          columns={monthColumns}
          rows={data.months}
          rowKey={(month) => month.month}
          sorting={{ mode: 'client' }}
          busy={busy}
          emptyMessage={t('empty')}
        />
        <DataTable<EnrollmentReport['failureReasons'][number]>
          id="report-enrollment-failures"
          label={t('enrollment.failureReasons')}
          columns={failureColumns}
          rows={data.failureReasons}
          rowKey={(line) => line.reason?.code ?? 'none'}
          sorting={{ mode: 'client' }}
          busy={busy}
          emptyMessage={t('empty')}
        />
      </div>
      {canPlan && editing ? (
        <EnrollmentTargetDialog
          key={editing.siteId}
          studyId={studyId}
          site={editing}
          defaultTarget={data.targetPerSite}
        />
      ) : null}
    </div>
  );
}
