import type { MonitoringRun } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import styles from './monitoring.module.css';

/**
 * The background run's state: when the figures shown were computed, a progress bar while a run is
 * queued or running, that data changed since (a new run follows), and — where the reader may start
 * one — "recompute now".
 */
export function RunState({
  run,
  onRecompute,
  recomputing = false,
}: {
  run: MonitoringRun;
  /** Starts a new run; left out where the reader may not (the dashboard's panel). */
  onRecompute?: () => void;
  recomputing?: boolean;
}) {
  const { t } = useTranslation('monitoring');
  const underWay = run.state === 'queued' || run.state === 'running';
  const computedAt = run.finishedAt ? formatDateTimeKst(run.finishedAt) : null;
  let text: string;
  if (run.state === 'failed')
    text = run.startedAt ? t('run.failedAt', { at: formatDateTimeKst(run.startedAt) }) : t('run.failed');
  else if (run.state === 'none') text = t('run.none');
  else if (underWay) text = t(`run.${run.state}`);
  else text = computedAt ? t('run.done', { at: computedAt }) : t('run.none');
  return (
    <div className={styles.run} data-run-state={run.state} role="status">
      <span className={styles.runText} data-failed={run.state === 'failed' ? 'true' : undefined}>
        {text}
      </span>
      {underWay ? (
        <span className={styles.runProgress}>
          <ProgressBar
            value={run.progress.done}
            max={run.progress.total}
            tone="active"
            width="10rem"
            label={t('run.label')}
            valueText={t('run.progress', run.progress)}
          />
          <span className={styles.muted}>{t('run.progress', run.progress)}</span>
        </span>
      ) : null}
      {underWay && computedAt ? (
        <span className={styles.muted}>{t('run.done', { at: computedAt })}</span>
      ) : null}
      {run.stale ? <span className={styles.stale}>{t('run.stale')}</span> : null}
      {onRecompute ? (
        <Button
          variant="secondary"
          size="sm"
          onClick={onRecompute}
          disabled={underWay || recomputing}
          aria-busy={recomputing}
        >
          {t('run.recompute')}
        </Button>
      ) : null}
    </div>
  );
}
