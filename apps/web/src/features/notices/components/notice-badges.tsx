import type { NoticeSummary } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import styles from './notices.module.css';

/** The marks of a notice: important (pinned), hidden (writers only see those), all studies. */
export function NoticeBadges({ notice }: { notice: Pick<NoticeSummary, 'pinned' | 'visible' | 'global'> }) {
  const { t } = useTranslation('notices');
  if (!notice.pinned && notice.visible && !notice.global) return null;
  return (
    <span className={styles.badges}>
      {notice.pinned && <span className={`${styles.badge} ${styles.badgePinned}`}>{t('badges.pinned')}</span>}
      {!notice.visible && (
        <span className={`${styles.badge} ${styles.badgeHidden}`}>{t('badges.hidden')}</span>
      )}
      {notice.global && <span className={`${styles.badge} ${styles.badgeGlobal}`}>{t('badges.global')}</span>}
    </span>
  );
}
