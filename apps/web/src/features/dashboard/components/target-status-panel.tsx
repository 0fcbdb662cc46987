import type { AgeGroup, DashboardResponse, GenderGroup, StatusCounts } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ageBandLabel, DOUGHNUT_CUTOUT, percentOf, STATUS_SEGMENTS } from '../lib/figures.ts';
import styles from './dashboard-page.module.css';
import { Empty, Panel } from './panel.tsx';

// Chart.js comes with the first chart drawn, not with the page (dashboard-charts.tsx).
const StatusDoughnutChart = lazy(async () => ({
  default: (await import('./dashboard-charts.tsx')).StatusDoughnutChart,
}));

type Grouping = 'gender' | 'age';

interface DoughnutGroup {
  key: string;
  label: string;
  total: number;
  randomized: number;
  statuses: StatusCounts;
}

/**
 * Row 2, right: subjects by status (spec §2, §4, §9), one doughnut per gender or per age band,
 * the five statuses as segments in the spec's colours, cutout 70 %, total and randomized in the
 * centre, tooltip "n persons (x.x%)". Groups without subjects are left out; with no subject at
 * all, one grey ring says so.
 */
export function TargetStatusPanel({
  targetStatus,
  randomizes,
  problem,
}: {
  targetStatus: DashboardResponse['targetStatus'] | undefined;
  /** The study randomizes: the centre and the summary say how many are randomized. */
  randomizes: boolean;
  problem: string | null;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const [grouping, setGrouping] = useState<Grouping>('gender');
  const language = i18n.language === 'en' ? 'en' : 'ko';

  function genderLabel(group: GenderGroup): string {
    return group.label ? group.label[language] : t('target.notEntered');
  }
  function ageLabel(group: AgeGroup): string {
    const label = ageBandLabel(group);
    switch (label.key) {
      case 'notEntered':
        return t('target.notEntered');
      case 'under':
        return t('target.ageUnder', { age: label.age });
      case 'over':
        return t('target.ageOver', { age: label.age });
      case 'range':
        return t('target.ageRange', { min: label.min, max: label.max });
    }
  }

  const groups: DoughnutGroup[] = !targetStatus
    ? []
    : grouping === 'gender'
      ? targetStatus.byGender.map((group) => ({ ...group, label: genderLabel(group) }))
      : targetStatus.byAge.map((group) => ({ ...group, label: ageLabel(group) }));
  const shown = groups.filter((group) => group.total > 0);

  return (
    <Panel
      title={t('target.title')}
      actions={
        <fieldset className={styles.segmented} aria-label={t('target.by')}>
          {(['gender', 'age'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={grouping === option}
              onClick={() => setGrouping(option)}
            >
              {t(`target.${option}`)}
            </button>
          ))}
        </fieldset>
      }
    >
      {!targetStatus ? (
        <Empty text={problem ?? t('loading')} />
      ) : shown.length === 0 ? (
        <div className={styles.ringArea}>
          <div className={styles.ring} aria-hidden="true" />
          <p className={styles.ringText}>{t('target.empty')}</p>
        </div>
      ) : (
        <div className={styles.doughnutArea}>
          <ul className={styles.doughnuts} data-count={shown.length}>
            {shown.map((group) => (
              <li key={group.key}>
                <StatusDoughnut group={group} randomizes={randomizes} />
              </li>
            ))}
          </ul>
          <ul className={styles.legend} aria-label={t('target.legend')}>
            {STATUS_SEGMENTS.map((segment) => (
              <li key={segment.status}>
                <span className={styles.swatch} style={{ background: segment.color }} aria-hidden="true" />
                {t(`status.${segment.status}`)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Panel>
  );
}

function StatusDoughnut({ group, randomizes }: { group: DoughnutGroup; randomizes: boolean }) {
  const { t } = useTranslation('dashboard');
  const { total, randomized, statuses } = group;
  const labels = useMemo(() => STATUS_SEGMENTS.map((segment) => t(`status.${segment.status}`)), [t]);
  // Built once per figures and language, so that Chart.js does not redraw the rings on every render.
  const data = useMemo(
    (): ChartData<'doughnut', number[], string> => ({
      labels,
      datasets: [
        {
          data: STATUS_SEGMENTS.map((segment) => statuses[segment.status]),
          backgroundColor: STATUS_SEGMENTS.map((segment) => segment.color),
          borderColor: '#ffffff',
          borderWidth: 2,
          hoverOffset: 4,
        },
      ],
    }),
    [labels, statuses],
  );
  const options = useMemo(
    (): ChartOptions<'doughnut'> => ({
      cutout: DOUGHNUT_CUTOUT,
      responsive: true,
      maintainAspectRatio: true,
      aspectRatio: 1,
      animation: { duration: 400 },
      plugins: {
        legend: { display: false },
        centreText: {
          total: t('target.centreTotal', { count: total }),
          randomized: randomizes ? t('target.centreRandomized', { count: randomized }) : '',
        },
        tooltip: {
          boxPadding: 4,
          callbacks: {
            label: (item) =>
              ` ${t('target.tooltip', { count: item.parsed, percent: percentOf(item.parsed, total) })}`,
          },
        },
      },
    }),
    [t, total, randomized, randomizes],
  );
  // The canvas is not readable by screen readers: the same figures as text.
  const summary = [
    randomizes
      ? t('target.chartSummary', { group: group.label, total: group.total, randomized: group.randomized })
      : t('target.chartSummaryTotal', { group: group.label, total: group.total }),
    ...STATUS_SEGMENTS.map(
      (segment, index) =>
        `${labels[index]} ${t('target.tooltip', {
          count: group.statuses[segment.status],
          percent: percentOf(group.statuses[segment.status], group.total),
        })}`,
    ),
  ].join(', ');
  return (
    <figure className={styles.doughnut}>
      <figcaption className={styles.doughnutTitle}>{group.label}</figcaption>
      <div className={styles.doughnutChart}>
        {/* Until Chart.js is there the box keeps the ring's square (the CSS's aspect-ratio), empty. */}
        <Suspense fallback={null}>
          <StatusDoughnutChart data={data} options={options} label={summary} />
        </Suspense>
      </div>
    </figure>
  );
}
