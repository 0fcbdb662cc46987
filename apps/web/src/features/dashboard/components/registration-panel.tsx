import type { DashboardResponse, SiteSummary } from '@cdms/contract';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import '../lib/chart-setup.ts';
import styles from './dashboard-page.module.css';
import { Empty, Panel } from './panel.tsx';

interface RegistrationPanelProps {
  registrations: DashboardResponse['registrations'] | undefined;
  /** The institutions in the user's scope (the dropdown). */
  sites: readonly SiteSummary[];
  siteId: number | null;
  onSiteChange: (siteId: number | null) => void;
  problem: string | null;
}

/**
 * Row 3 (spec §2): subjects registered per month of consent, from the first month to this one,
 * for every institution in scope or the one chosen in the dropdown.
 */
export function RegistrationPanel({
  registrations,
  sites,
  siteId,
  onSiteChange,
  problem,
}: RegistrationPanelProps) {
  const { t } = useTranslation('dashboard');
  const months = useMemo(() => registrations?.months ?? [], [registrations]);
  // Built once per figures and language: a new object on every render would make Chart.js animate
  // the line again each time anything else on the page changes.
  const data = useMemo(
    (): ChartData<'line', number[], string> => ({
      labels: months.map((entry) => entry.month),
      datasets: [
        {
          label: t('registration.series'),
          data: months.map((entry) => entry.count),
          borderColor: '#1d4ed8',
          backgroundColor: 'rgba(29, 78, 216, 0.12)',
          pointBackgroundColor: '#1d4ed8',
          pointRadius: 3,
          pointHoverRadius: 5,
          fill: true,
          // Monotone: the curve never bulges past a month's count.
          cubicInterpolationMode: 'monotone',
        },
      ],
    }),
    [months, t],
  );
  const options = useMemo(
    (): ChartOptions<'line'> => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: { duration: 400 },
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { grid: { display: false } },
        y: { beginAtZero: true, ticks: { precision: 0 }, grid: { color: '#eef0f3' } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          boxPadding: 4,
          callbacks: { label: (item) => ` ${t('registration.tooltip', { count: item.parsed.y ?? 0 })}` },
        },
      },
    }),
    [t],
  );
  const summary = months.map((entry) => `${entry.month}: ${entry.count}`).join(', ');
  return (
    <Panel
      title={t('registration.title')}
      actions={
        <div className={styles.siteSelect}>
          <select
            aria-label={t('registration.site')}
            value={siteId ?? ''}
            onChange={(event) => onSiteChange(event.target.value === '' ? null : Number(event.target.value))}
          >
            <option value="">{t('registration.allSites')}</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      }
    >
      <div className={styles.chartArea}>
        {!registrations ? (
          <Empty text={problem ?? t('loading')} />
        ) : months.length === 0 ? (
          <Empty text={t('registration.empty')} />
        ) : (
          <Line
            data={data}
            options={options}
            role="img"
            aria-label={t('registration.chartSummary', { months: summary })}
          />
        )}
      </div>
    </Panel>
  );
}
