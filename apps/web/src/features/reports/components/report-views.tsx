import {
  type AdverseEventsReport,
  type EnrollmentReport,
  type MissingFormsReport,
  type ProtocolDeviationsReport,
  type QueryAgingReport,
  queryAgeBuckets,
  type ReportKey,
  type ReportResponse,
} from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { type ReactNode, useMemo } from 'react';
import { Bar, Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths, studyPath } from '../../../app/paths.ts';
import { ListTable, ListTableMessage, listStyles } from '../../../components/list-page.tsx';
import { cumulative } from '../lib/report-filters.ts';
import '../lib/chart-setup.ts';
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
      return <EnrollmentView data={data} busy={busy} />;
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

const numeric = listStyles.numeric;

// ---------------------------------------------------------------------------------------------

function EnrollmentView({ data, busy }: { data: EnrollmentReport; busy: boolean }) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const target = data.targetPerSite * data.sites.length;
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
      <ListTable
        label={t('enrollment.bySite')}
        busy={busy}
        head={
          <>
            <th scope="col">{t('columns.site')}</th>
            <th scope="col" className={numeric}>
              {t('enrollment.screened')}
            </th>
            <th scope="col" className={numeric}>
              {t('enrollment.screeningFailures')}
            </th>
            <th scope="col" className={numeric}>
              {t('enrollment.randomized')}
            </th>
            <th scope="col" className={numeric}>
              {t('enrollment.target')}
            </th>
            <th scope="col" className={numeric}>
              {t('enrollment.progress')}
            </th>
          </>
        }
      >
        {data.sites.map((site) => (
          <tr key={site.siteId}>
            <td>
              {site.siteCode} {site.siteName}
            </td>
            <td className={numeric}>{site.screened}</td>
            <td className={numeric}>{site.screeningFailures}</td>
            <td className={numeric}>{site.randomized}</td>
            <td className={numeric}>{data.targetPerSite}</td>
            <td className={numeric}>{percent(site.randomized, data.targetPerSite)}</td>
          </tr>
        ))}
        <tr className={styles.totalRow}>
          <th scope="row">{t('totalRow')}</th>
          <td className={numeric}>{totals.screened}</td>
          <td className={numeric}>{totals.screeningFailures}</td>
          <td className={numeric}>{totals.randomized}</td>
          <td className={numeric}>{target}</td>
          <td className={numeric}>{percent(totals.randomized, target)}</td>
        </tr>
      </ListTable>
      <div className={styles.twoColumns}>
        <ListTable
          label={t('enrollment.byMonth')}
          busy={busy}
          head={
            <>
              <th scope="col">{t('columns.month')}</th>
              <th scope="col" className={numeric}>
                {t('enrollment.screened')}
              </th>
              <th scope="col" className={numeric}>
                {t('enrollment.screeningFailures')}
              </th>
              <th scope="col" className={numeric}>
                {t('enrollment.randomized')}
              </th>
            </>
          }
        >
          {data.months.length === 0 ? (
            <ListTableMessage columns={4}>{t('empty')}</ListTableMessage>
          ) : (
            data.months.map((month) => (
              <tr key={month.month}>
                <td>{month.month}</td>
                <td className={numeric}>{month.screened}</td>
                <td className={numeric}>{month.screeningFailures}</td>
                <td className={numeric}>{month.randomized}</td>
              </tr>
            ))
          )}
        </ListTable>
        <ListTable
          label={t('enrollment.failureReasons')}
          busy={busy}
          head={
            <>
              <th scope="col">{t('enrollment.reason')}</th>
              <th scope="col" className={numeric}>
                {t('enrollment.subjects')}
              </th>
            </>
          }
        >
          {data.failureReasons.length === 0 ? (
            <ListTableMessage columns={2}>{t('empty')}</ListTableMessage>
          ) : (
            data.failureReasons.map((line) => (
              <tr key={line.reason?.code ?? 'none'}>
                <td>{line.reason ? line.reason.label[language] : t('notEntered')}</td>
                <td className={numeric}>{line.count}</td>
              </tr>
            ))
          )}
        </ListTable>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

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
  const lines = [
    ...data.sites.map((site) => ({
      key: String(site.siteId),
      label: site.siteCode,
      line: site,
      total: false,
    })),
    { key: 'total', label: t('totalRow'), line: data.total, total: true },
  ];
  const days = (value: number | null) => (value === null ? '–' : t('days', { count: value }));
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
      <ListTable
        label={t('queryAging.table')}
        busy={busy}
        head={
          <>
            <th scope="col">{t('columns.site')}</th>
            {queryAgeBuckets.map((bucket) => (
              <th key={`open-${bucket}`} scope="col" className={numeric}>
                {t('queryAging.openBucket', { bucket })}
              </th>
            ))}
            {queryAgeBuckets.map((bucket) => (
              <th key={`answered-${bucket}`} scope="col" className={numeric}>
                {t('queryAging.answeredBucket', { bucket })}
              </th>
            ))}
            <th scope="col" className={numeric}>
              {t('queryAging.medianToAnswer')}
            </th>
            <th scope="col" className={numeric}>
              {t('queryAging.medianToClose')}
            </th>
          </>
        }
      >
        {lines.map(({ key, label, line, total }) => (
          <tr key={key} className={total ? styles.totalRow : undefined}>
            {total ? <th scope="row">{label}</th> : <td>{label}</td>}
            {queryAgeBuckets.map((bucket) => (
              <td key={`open-${bucket}`} className={numeric}>
                {line.open[bucket]}
              </td>
            ))}
            {queryAgeBuckets.map((bucket) => (
              <td key={`answered-${bucket}`} className={numeric}>
                {line.answered[bucket]}
              </td>
            ))}
            <td className={numeric}>{days(line.medianDaysToAnswer)}</td>
            <td className={numeric}>{days(line.medianDaysToClose)}</td>
          </tr>
        ))}
      </ListTable>
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
      <ListTable
        label={t('reports.missingForms.name')}
        busy={busy}
        head={
          <>
            <th scope="col">{t('columns.site')}</th>
            <th scope="col">{t('columns.subject')}</th>
            <th scope="col">{t('columns.visit')}</th>
            <th scope="col">{t('columns.form')}</th>
            <th scope="col">{t('columns.state')}</th>
            <th scope="col">{t('missingForms.dueDate')}</th>
            <th scope="col" className={numeric}>
              {t('missingForms.days')}
            </th>
          </>
        }
      >
        {data.rows.length === 0 ? (
          <ListTableMessage columns={7}>{t('empty')}</ListTableMessage>
        ) : (
          data.rows.map((row) => (
            <tr key={`${row.subjectPk}-${row.visitKey}-${row.formKey}`}>
              <td>{row.siteCode}</td>
              <td>
                <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />
              </td>
              <td>{row.visitLabel[language]}</td>
              <td>{row.formLabel[language]}</td>
              <td>
                <span className={styles.badge} data-tone={row.state === 'empty' ? 'warning' : 'info'}>
                  {t(`missingForms.states.${row.state}`)}
                </span>
              </td>
              <td>{row.dueDate}</td>
              <td className={numeric}>{row.daysOutstanding}</td>
            </tr>
          ))
        )}
      </ListTable>
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
      <ListTable
        label={t('reports.protocolDeviations.name')}
        busy={busy}
        head={
          <>
            <th scope="col">{t('columns.site')}</th>
            <th scope="col">{t('columns.subject')}</th>
            <th scope="col">{t('columns.kind')}</th>
            <th scope="col">{t('columns.visit')}</th>
            <th scope="col">{t('columns.date')}</th>
            <th scope="col" className={numeric}>
              {t('columns.days')}
            </th>
            <th scope="col">{t('columns.detail')}</th>
          </>
        }
      >
        {data.rows.length === 0 ? (
          <ListTableMessage columns={7}>{t('empty')}</ListTableMessage>
        ) : (
          data.rows.map((row) => (
            <tr key={`${row.subjectPk}-${row.kind}-${row.visitKey}-${row.date}-${row.detail.en}`}>
              <td>{row.siteCode}</td>
              <td>
                <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />
              </td>
              <td>{t(`deviations.${row.kind}`)}</td>
              <td>{row.visitLabel[language]}</td>
              <td>{row.date ?? '–'}</td>
              <td className={numeric}>{daysText(row)}</td>
              <td>{row.detail[language]}</td>
            </tr>
          ))
        )}
      </ListTable>
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
      <ListTable
        label={t('reports.adverseEvents.name')}
        busy={busy}
        head={
          <>
            <th scope="col">{t('columns.site')}</th>
            <th scope="col">{t('columns.subject')}</th>
            <th scope="col" className={numeric}>
              {t('adverseEvents.number')}
            </th>
            <th scope="col">{t('adverseEvents.term')}</th>
            <th scope="col">{t('adverseEvents.startDate')}</th>
            <th scope="col">{t('adverseEvents.endDate')}</th>
            <th scope="col">{t('adverseEvents.serious')}</th>
            <th scope="col">{t('adverseEvents.severity')}</th>
            <th scope="col">{t('adverseEvents.causality')}</th>
            <th scope="col">{t('adverseEvents.action')}</th>
            <th scope="col">{t('adverseEvents.outcome')}</th>
          </>
        }
      >
        {data.rows.length === 0 ? (
          <ListTableMessage columns={11}>{t('empty')}</ListTableMessage>
        ) : (
          data.rows.map((row) => (
            <tr
              key={`${row.subjectPk}-${row.eventNumber}`}
              className={row.serious ? styles.seriousRow : undefined}
            >
              <td>{row.siteCode}</td>
              <td>
                <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />
              </td>
              <td className={numeric}>{row.eventNumber}</td>
              <td>{row.term ?? '–'}</td>
              <td>{row.startDate ?? '–'}</td>
              <td>{row.endDate ?? '–'}</td>
              <td>
                {row.serious ? (
                  <span className={styles.badge} data-tone="danger">
                    {t('adverseEvents.sae')}
                  </span>
                ) : (
                  t('adverseEvents.notSerious')
                )}
              </td>
              <td>{label(row.severity)}</td>
              <td>{label(row.causality)}</td>
              <td>{label(row.deviceAction)}</td>
              <td>{label(row.outcome)}</td>
            </tr>
          ))
        )}
      </ListTable>
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
          <ListTable
            // Another name than the panel's: two landmarks may not share one.
            label={t('adverseEvents.interest.table')}
            busy={busy}
            head={
              <>
                <th scope="col">{t('columns.visit')}</th>
                <th scope="col" className={numeric}>
                  {t('adverseEvents.interest.forms')}
                </th>
                <th scope="col" className={numeric}>
                  {t('adverseEvents.interest.pain')}
                </th>
                <th scope="col" className={numeric}>
                  {t('adverseEvents.interest.otorrhea')}
                </th>
                <th scope="col" className={numeric}>
                  {t('adverseEvents.interest.reperforation')}
                </th>
              </>
            }
          >
            {data.interest.map((line) => (
              <tr key={line.visitKey}>
                <td>{line.visitLabel[language]}</td>
                <td className={numeric}>{line.forms}</td>
                <td className={numeric}>{line.pain}</td>
                <td className={numeric}>{line.otorrhea}</td>
                <td className={numeric}>{line.reperforation}</td>
              </tr>
            ))}
          </ListTable>
        </div>
      </Panel>
    </div>
  );
}
