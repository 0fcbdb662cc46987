import {
  type AdverseEventsReport,
  type EnrollmentReport,
  type MissingFormsReport,
  type ProtocolDeviationsReport,
  type QueryAgeBucket,
  type QueryAgingReport,
  queryAgeBuckets,
  type ReportKey,
  type ReportResponse,
} from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { type ReactNode, useMemo, useState } from 'react';
import { Bar, Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useMe } from '../../../lib/me.ts';
import { paths, studyPath } from '../../../lib/paths.ts';
import { cumulative } from '../lib/report-filters.ts';
import '../lib/chart-setup.ts';
import {
  ENROLLMENT_TARGET_MODAL,
  EnrollmentTargetDialog,
  type TargetSite,
} from './enrollment-target-dialog.tsx';
import styles from './reports.module.css';

type Language = 'ko' | 'en';

function useLanguage(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'ko';
}

/** The chosen report's tables and chart, or its loading state. */
export function ReportView({
  report,
  data,
  busy,
  studyId,
}: {
  report: ReportKey;
  data: ReportResponse | undefined;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  if (!data) {
    return (
      <p className={styles.loading} role="status">
        {t('loading')}
      </p>
    );
  }
  switch (data.report) {
    case 'enrollment':
      return <EnrollmentView data={data} busy={busy} studyId={studyId} />;
    case 'queryAging':
      return <QueryAgingView data={data} busy={busy} />;
    case 'missingForms':
      return <MissingFormsView data={data} busy={busy} studyId={studyId} />;
    case 'protocolDeviations':
      return <DeviationsView data={data} busy={busy} studyId={studyId} />;
    case 'adverseEvents':
      return <AdverseEventsView data={data} busy={busy} studyId={studyId} />;
  }
  void report;
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.panel} aria-label={title}>
      <h2 className={styles.panelTitle}>{title}</h2>
      {children}
    </section>
  );
}

function SubjectLink({
  studyId,
  subjectPk,
  subjectId,
}: {
  studyId: number;
  subjectPk: number;
  subjectId: string;
}) {
  const [searchParams] = useSearchParams();
  const to = studyPath(paths.subjectOverview, studyId, {
    'menu-type': searchParams.get('menu-type') ?? undefined,
    'subject-id': subjectId,
    'subject-pk': String(subjectPk),
  });
  return (
    <Link to={to} className={listStyles.rowLink}>
      {subjectId}
    </Link>
  );
}

/** The shared pager of a paged listing (missing forms, deviations, adverse events). */
function listingPager(data: { total: number; size: number }) {
  return { total: data.total, pageSize: data.size };
}

// ---------------------------------------------------------------------------------------------

/** A line of the enrollment table by site: a site, or the total beneath them. */
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

function EnrollmentView({ data, busy, studyId }: { data: EnrollmentReport; busy: boolean; studyId: number }) {
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
    {
      id: 'site',
      header: t('columns.site'),
      hideable: false,
      sortValue: (line) => line.label,
      cell: (line) => line.label,
    },
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
    {
      id: 'month',
      header: t('columns.month'),
      hideable: false,
      sortValue: (month) => month.month,
      cell: (month) => month.month,
    },
    monthCount('screened'),
    monthCount('screeningFailures'),
    monthCount('randomized'),
  ];
  type FailureLine = EnrollmentReport['failureReasons'][number];
  const reasonLabel = (line: FailureLine) => (line.reason ? line.reason.label[language] : t('notEntered'));
  const failureColumns: DataTableColumn<FailureLine>[] = [
    {
      id: 'reason',
      header: t('enrollment.reason'),
      hideable: false,
      sortValue: reasonLabel,
      cell: reasonLabel,
    },
    {
      id: 'subjects',
      header: t('enrollment.subjects'),
      numeric: true,
      hideable: false,
      sortValue: (line) => line.count,
      cell: (line) => line.count,
    },
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

// ---------------------------------------------------------------------------------------------

/** A line of the query aging table: a site, or the total beneath them. */
interface AgingLine {
  key: string;
  label: string;
  line: QueryAgingReport['total'];
}

function QueryAgingView({ data, busy }: { data: QueryAgingReport; busy: boolean }) {
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
        <div className={styles.chartArea}>
          <Bar
            data={chart}
            options={options}
            role="img"
            aria-label={t('queryAging.chartSummary', { summary })}
          />
        </div>
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

// ---------------------------------------------------------------------------------------------

function MissingFormsView({
  data,
  busy,
  studyId,
}: {
  data: MissingFormsReport;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  return (
    <div className={styles.views}>
      <ul className={styles.counts} aria-label={t('missingForms.bySite')}>
        {data.bySite.map((site) => (
          <li key={site.siteCode} className={styles.count}>
            <span className={styles.countValue}>{site.empty + site.incomplete}</span>
            <span className={styles.countLabel}>
              {site.siteCode} · {t('missingForms.split', { empty: site.empty, incomplete: site.incomplete })}
            </span>
          </li>
        ))}
      </ul>
      <DataTable<MissingFormsReport['rows'][number]>
        id="report-missing-forms"
        label={t('reports.missingForms.name')}
        columns={[
          { id: 'site', header: t('columns.site'), cell: (row) => row.siteCode },
          {
            id: 'subject',
            header: t('columns.subject'),
            hideable: false,
            cell: (row) => (
              <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />
            ),
          },
          { id: 'visit', header: t('columns.visit'), cell: (row) => row.visitLabel[language] },
          { id: 'form', header: t('columns.form'), cell: (row) => row.formLabel[language] },
          {
            id: 'state',
            header: t('columns.state'),
            cell: (row) => (
              <span className={styles.badge} data-tone={row.state === 'empty' ? 'warning' : 'info'}>
                {t(`missingForms.states.${row.state}`)}
              </span>
            ),
          },
          { id: 'dueDate', header: t('missingForms.dueDate'), cell: (row) => row.dueDate },
          { id: 'days', header: t('missingForms.days'), numeric: true, cell: (row) => row.daysOutstanding },
        ]}
        rows={data.rows}
        rowKey={(row) => `${row.subjectPk}-${row.visitKey}-${row.formKey}`}
        busy={busy}
        emptyMessage={t('empty')}
        pager={listingPager(data)}
      />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function DeviationsView({
  data,
  busy,
  studyId,
}: {
  data: ProtocolDeviationsReport;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const daysText = (row: ProtocolDeviationsReport['rows'][number]) => {
    if (row.days === null) return '–';
    if (row.kind === 'outOfWindow')
      return t(row.days < 0 ? 'deviationDays.early' : 'deviationDays.late', { count: Math.abs(row.days) });
    return t('deviationDays.fromV2', { count: row.days });
  };
  return (
    <div className={styles.views}>
      <ul className={styles.counts} aria-label={t('deviationsByKind')}>
        {data.byKind.map((line) => (
          <li key={line.kind} className={styles.count}>
            <span className={styles.countValue}>{line.count}</span>
            <span className={styles.countLabel}>{t(`deviations.${line.kind}`)}</span>
          </li>
        ))}
      </ul>
      <DataTable<ProtocolDeviationsReport['rows'][number]>
        id="report-deviations"
        label={t('reports.protocolDeviations.name')}
        columns={[
          { id: 'site', header: t('columns.site'), cell: (row) => row.siteCode },
          {
            id: 'subject',
            header: t('columns.subject'),
            hideable: false,
            cell: (row) => (
              <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />
            ),
          },
          { id: 'kind', header: t('columns.kind'), cell: (row) => t(`deviations.${row.kind}`) },
          { id: 'visit', header: t('columns.visit'), cell: (row) => row.visitLabel[language] },
          { id: 'date', header: t('columns.date'), cell: (row) => row.date ?? '–' },
          { id: 'days', header: t('columns.days'), numeric: true, cell: daysText },
          { id: 'detail', header: t('columns.detail'), cell: (row) => row.detail[language] },
        ]}
        rows={data.rows}
        rowKey={(row) => `${row.subjectPk}-${row.kind}-${row.visitKey}-${row.date}-${row.detail.en}`}
        busy={busy}
        emptyMessage={t('empty')}
        pager={listingPager(data)}
      />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function AdverseEventsView({
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
      datasets: (['pain', 'otorrhea', 'reperforation'] as const).map((key, index) => ({
        label: t(`adverseEvents.interest.${key}`),
        data: data.interest.map((line) => line[key]),
        backgroundColor: ['#f59e0b', '#0ea5e9', '#dc2626'][index],
      })),
    }),
    [data, language, t],
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
    .map((line) => `${line.visitLabel[language]}: ${line.pain}/${line.otorrhea}/${line.reperforation}`)
    .join(', ');
  return (
    <div className={styles.views}>
      <DataTable<AdverseEventsReport['rows'][number]>
        id="report-adverse-events"
        label={t('reports.adverseEvents.name')}
        columns={[
          { id: 'site', header: t('columns.site'), cell: (row) => row.siteCode },
          {
            id: 'subject',
            header: t('columns.subject'),
            hideable: false,
            cell: (row) => (
              <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />
            ),
          },
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
      <Panel title={t('adverseEvents.interest.title')}>
        <div className={styles.twoColumns}>
          <div className={styles.chartArea}>
            <Bar
              data={chart}
              options={options}
              role="img"
              aria-label={t('adverseEvents.interest.chartSummary', { summary })}
            />
          </div>
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
              ...(['forms', 'pain', 'otorrhea', 'reperforation'] as const).map(
                (key): DataTableColumn<AdverseEventsReport['interest'][number]> => ({
                  id: key,
                  header: t(`adverseEvents.interest.${key}`),
                  numeric: true,
                  hideable: false,
                  cell: (line) => line[key],
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
    </div>
  );
}
