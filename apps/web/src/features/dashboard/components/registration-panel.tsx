import type { DashboardResponse, SiteSummary } from '@cdms/contract';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { registrationChartData, registrationChartOptions } from '../lib/registration-chart.ts';
import styles from './dashboard-page.module.css';
import { Empty, Panel } from './panel.tsx';

// Chart.js comes with the first chart drawn, not with the page (dashboard-charts.tsx).
const RegistrationChart = lazy(async () => ({
  default: (await import('./dashboard-charts.tsx')).RegistrationChart,
}));

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
  // the bars again each time anything else on the page changes.
  const data = useMemo(() => registrationChartData(months, t('registration.series')), [months, t]);
  const options = useMemo(
    () => registrationChartOptions((count) => t('registration.tooltip', { count })),
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
          // Until Chart.js is there the area keeps its height and still says it is loading.
          <Suspense fallback={<Empty text={t('loading')} />}>
            <RegistrationChart
              data={data}
              options={options}
              label={t('registration.chartSummary', { months: summary })}
            />
          </Suspense>
        )}
      </div>
    </Panel>
  );
}
