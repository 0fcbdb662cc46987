import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { timeLeft } from '../lib/sae-filters.ts';
import styles from './safety.module.css';

/** Now, moved on every minute (the clock's display). */
export function useMinuteNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The 24-hour clock of a report: time left (or overdue, in red) until its due time in KST; a report
 * submitted is off the clock and shows when it was submitted instead.
 */
export function SaeClock({
  dueAt,
  firstSubmittedAt,
  now,
}: {
  dueAt: string;
  firstSubmittedAt: string | null;
  now: number;
}) {
  const { t } = useTranslation('safety');
  if (firstSubmittedAt !== null) {
    const late = Date.parse(firstSubmittedAt) > Date.parse(dueAt);
    return (
      <span className={styles.clock} data-clock={late ? 'late' : 'done'}>
        {late ? t('clock.submittedLate') : t('clock.submittedInTime')}
      </span>
    );
  }
  const left = timeLeft(dueAt, now);
  return (
    <span
      className={styles.clock}
      data-clock={left.overdue ? 'overdue' : left.hours < 12 ? 'soon' : 'running'}
    >
      {left.overdue
        ? t('clock.overdue', { hours: left.hours, minutes: left.minutes })
        : t('clock.left', { hours: left.hours, minutes: left.minutes })}
      <span className={styles.clockDue}>{t('clock.due', { time: formatDateTimeKst(dueAt) })}</span>
    </span>
  );
}
