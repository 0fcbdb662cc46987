import { useTranslation } from 'react-i18next';
import { formatCountdown, timerPhase } from '../session-clock.ts';
import styles from './session-timer.module.css';
import { useSessionTimer } from './session-timer-provider.tsx';

/** The header's mm:ss countdown of the session, with a button to extend it. */
export function SessionTimer() {
  const { t } = useTranslation('session');
  const { remaining, extend } = useSessionTimer();
  if (remaining === null) return null;
  const phase = timerPhase(remaining);
  return (
    <div className={styles.timer} data-phase={phase}>
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="13" r="8" />
        <path d="M12 9v4l2.5 2.5M9.5 2.5h5" />
      </svg>
      <span className={styles.label}>{t('timer.label')}</span>
      {/* role=timer is not announced every second (implicit aria-live off). */}
      <span role="timer" aria-label={t('timer.aria')} className={styles.time} data-testid="session-timer">
        {formatCountdown(remaining)}
      </span>
      <button type="button" className={styles.extend} onClick={() => void extend()}>
        {t('timer.extend')}
      </button>
    </div>
  );
}
