import type { MonitoringPanelResponse } from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { useMonitoringPanel } from '../api/monitoring-panel-api.ts';
import { formatIndicator, localized, strengthPercent } from '../lib/indicators.ts';
import { MENU_TYPE_PARAM, monitoringUrl } from '../lib/monitoring-urls.ts';
import styles from './monitoring-panel.module.css';
import { RunState } from './run-state.tsx';
import { TrafficLightMark } from './traffic-light.tsx';

/**
 * The dashboard's central-monitoring panel (issue 50 item 3; it replaces the prototype's "AI analysis"):
 * the strongest open signals and the indicators past a limit in the reader's scope, as the server's
 * stored run has them (`GET …/monitoring/panel`), the run's state, and a link to the full page. Site
 * roles get their own sites' indicators and no signals: the server decides, the panel shows what comes.
 */
export function MonitoringPanel({ studyId }: { studyId: number }) {
  const { t } = useTranslation('monitoring');
  const [searchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const panel = useMonitoringPanel(studyId);
  const headingId = useId();
  const data = panel.data;
  return (
    <section className={styles.panel} aria-labelledby={headingId} data-testid="monitoring-panel">
      <div className={styles.header}>
        <h2 id={headingId} className={styles.heading}>
          {t('panel.title')}
        </h2>
        {data?.canOpenPage ? (
          <Link
            className={styles.more}
            to={monitoringUrl(studyId, menuType)}
            aria-label={t('panel.moreLabel')}
          >
            {t('panel.more')} ›
          </Link>
        ) : null}
      </div>
      {panel.error && !data ? (
        <p className={styles.empty} role="alert">
          {t('loadFailed')}
        </p>
      ) : !data ? (
        <p className={styles.empty} role="status">
          {t('loading')}
        </p>
      ) : (
        <PanelContent data={data} studyId={studyId} menuType={menuType} />
      )}
    </section>
  );
}

function PanelContent({
  data,
  studyId,
  menuType,
}: {
  data: MonitoringPanelResponse;
  studyId: number;
  menuType: string | null;
}) {
  const { t, i18n } = useTranslation('monitoring');
  const { run, topSignals, flaggedIndicators } = data;
  const nothingComputed = run.state === 'none' || (run.finishedAt === null && run.state !== 'failed');
  const nothingFlagged = topSignals.length === 0 && flaggedIndicators.length === 0;
  return (
    <>
      <RunState run={run} />
      {nothingFlagged ? (
        <p className={styles.empty}>{nothingComputed ? t('panel.noRun') : t('panel.nothingFlagged')}</p>
      ) : null}
      {topSignals.length > 0 ? (
        <div>
          <h3 className={styles.subheading}>{t('panel.topSignals')}</h3>
          <ul className={styles.list} aria-label={t('panel.signalsCaption')}>
            {topSignals.map((signal) => {
              const percent = strengthPercent(signal.strength);
              const title = localized(signal.title, i18n.language);
              return (
                <li key={signal.id} className={styles.signalItem} data-signal-id={signal.id}>
                  <span className={styles.signalMeta}>
                    <span className={styles.kind}>{t(`kinds.${signal.kind}.name`)}</span>
                    <span className={styles.site}>{signal.site.code}</span>
                    <span className={styles.siteName}>{signal.site.name}</span>
                    <span className={styles.strength}>
                      <ProgressBar value={percent} max={100} tone="partial" width="4.8rem" />
                      <span>{t('panel.strength', { percent })}</span>
                    </span>
                  </span>
                  {data.canOpenPage ? (
                    <Link
                      className={styles.title}
                      to={monitoringUrl(studyId, menuType, signal.id)}
                      title={title}
                    >
                      {title}
                    </Link>
                  ) : (
                    <span className={styles.title} title={title}>
                      {title}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {flaggedIndicators.length > 0 ? (
        <div>
          <h3 className={styles.subheading}>{t('panel.flagged')}</h3>
          <ul className={styles.list}>
            {flaggedIndicators.map(({ site, indicator }) => (
              <li key={`${site.id}-${indicator.key}`} className={styles.item} data-indicator={indicator.key}>
                <TrafficLightMark light={indicator.light} withText />
                <span className={styles.site}>{site.code}</span>
                <span className={styles.title}>
                  {t(`kri.${indicator.key}.name`)} <span className={styles.muted}>({site.name})</span>
                </span>
                <span className={styles.value}>
                  {formatIndicator(indicator.key, indicator.value)}{' '}
                  <span className={styles.muted}>{t(`kri.${indicator.key}.unit`)}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
