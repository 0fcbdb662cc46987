import { type HoldInForce, strongestHold } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import styles from './subject-detail.module.css';

/**
 * The freeze or lock over a form (issue 15), above it: which one, at which level (the form's own, the
 * subject's, the site's or the study's), who placed it, when and why, and what it still allows. The
 * hold named is the one the server names when it refuses a write: the one to lift first.
 */
export function FormHoldBanner({ holds }: { holds: readonly HoldInForce[] }) {
  const { t } = useTranslation('holds');
  const hold = strongestHold(holds);
  if (!hold) return null;
  return (
    <div className={styles.banner} data-tone={hold.kind} role="note" data-hold-banner={hold.kind}>
      <div className={styles.bannerText}>
        <span className={styles.bannerTitle}>
          {t(`banner.${hold.kind}`, { level: t(`levels.${hold.level}`) })}
        </span>
        <span>{t(`banner.${hold.kind}Allows`)}</span>
        <span>
          {t('banner.placed', {
            name: hold.placedBy.name,
            at: formatDateTimeKst(hold.placedAt),
            reason: hold.reason,
          })}
        </span>
      </div>
    </div>
  );
}
