import type { TrainingStatus } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import styles from './training.module.css';

/** A standing as words with a colour: completed, outdated (an older version), not done, or not required. */
export function TrainingStatusBadge({ status }: { status: TrainingStatus | null }) {
  const { t } = useTranslation('training');
  if (status === null) return <span className={styles.muted}>{t('status.notRequired')}</span>;
  return (
    <span className={styles.status} data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}
