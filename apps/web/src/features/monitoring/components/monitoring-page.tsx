import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { ListPage, listStyles } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useMonitoring, useStartRun } from '../api/monitoring-api.ts';
import { IndicatorTable } from './indicator-table.tsx';
import { LIMITS_MODAL, LimitsDialog } from './limits-dialog.tsx';
import styles from './monitoring.module.css';
import { RunState } from './run-state.tsx';
import { SignalList } from './signal-list.tsx';

/**
 * `/monitoring/:studyId` (issue 50): central monitoring for every study member — the key risk
 * indicators per site with their traffic lights and trends (site roles see their own sites: the
 * server's answer holds only those), the tolerance limits editor for those allowed, the statistical
 * signals and their actions for monitors and data managers (`canActOnSignals`), and the background
 * run's state with "recompute now".
 */
export function MonitoringPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Monitoring studyId={studyId} />;
}

function Monitoring({ studyId }: { studyId: number }) {
  const { t } = useTranslation('monitoring');
  const me = useMe();
  const modals = useModalStack();
  const toast = useToast();
  const monitoring = useMonitoring(studyId);
  const startRun = useStartRun(studyId);
  const data = monitoring.data;
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  // Starting a run is the reviewers' (CRA, DM, ADMIN: `monitoring.review`), as acting on signals is.
  const mayRecompute = data?.canActOnSignals ?? false;

  async function recompute() {
    try {
      await startRun.mutateAsync(undefined);
      toast(t('run.started'), 'success');
    } catch (failure) {
      toast(`${t('run.startFailed')}: ${errorText(failure)}`, 'error');
    }
  }

  return (
    <ListPage
      title={t('title')}
      headerActions={
        data ? (
          <RunState
            run={data.run}
            onRecompute={mayRecompute ? () => void recompute() : undefined}
            recomputing={startRun.isPending}
          />
        ) : null
      }
    >
      {monitoring.error && !data ? (
        <div className={`${listStyles.card} ${listStyles.stateError} ${listStyles.state}`} role="alert">
          <span>{t('loadFailed')}</span>
          <span>{monitoring.error.message}</span>
          <Button variant="secondary" size="sm" onClick={() => void monitoring.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : !data ? (
        <p className={`${listStyles.card} ${listStyles.state}`} role="status">
          {t('loading')}
        </p>
      ) : (
        <>
          <section className={styles.section} aria-labelledby="monitoring-indicators-heading">
            <div className={styles.sectionHeader}>
              <h2 id="monitoring-indicators-heading" className={styles.sectionTitle}>
                {t('indicators.title')}
              </h2>
              {data.canManageLimits ? (
                <Button variant="secondary" size="sm" onClick={() => modals.open(LIMITS_MODAL)}>
                  {t('limits.edit')}
                </Button>
              ) : null}
            </div>
            <IndicatorTable data={data} />
          </section>
          {data.canManageLimits ? <LimitsDialog studyId={studyId} limits={data.limits} /> : null}

          <section className={styles.section} aria-labelledby="monitoring-signals-heading">
            <div className={styles.sectionHeader}>
              <h2 id="monitoring-signals-heading" className={styles.sectionTitle}>
                {t('signals.title')}
              </h2>
              {data.canActOnSignals ? (
                <span className={styles.muted}>
                  {t('signals.counts', {
                    open: data.signalCounts.open ?? 0,
                    queried: data.signalCounts.queried ?? 0,
                    noted: data.signalCounts.noted ?? 0,
                    dismissed: data.signalCounts.dismissed ?? 0,
                  })}
                </span>
              ) : null}
            </div>
            {data.canActOnSignals ? (
              <SignalList
                studyId={studyId}
                sites={
                  data.sites.length > 0 ? data.sites.map((site) => site.site) : (membership?.sites ?? [])
                }
                canAct={data.canActOnSignals}
              />
            ) : (
              <p className={`${listStyles.card} ${listStyles.state}`}>{t('signals.notForYou')}</p>
            )}
          </section>
        </>
      )}
    </ListPage>
  );
}
