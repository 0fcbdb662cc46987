import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../../../lib/me.ts';
import { paths, studyPath } from '../../../lib/paths.ts';
import styles from './training-pending-banner.module.css';

/**
 * Whether the study's training gate holds the signed-in user's data entry back (issue 51 item 4): the
 * server's `trainingPending` of the membership (`/api/auth/me`), the same rule its writes follow, so
 * the page says so and disables saving before a save is refused.
 */
export function useTrainingPending(studyId: number): boolean {
  const me = useMe();
  return me.data?.memberships.find((membership) => membership.studyId === studyId)?.trainingPending ?? false;
}

/**
 * Above a subject's pages while the user owes required training: they can read but not enter or
 * change data, and the link leads to the study's training page.
 */
export function TrainingPendingBanner({ studyId }: { studyId: number }) {
  const { t } = useTranslation('subjects');
  if (!useTrainingPending(studyId)) return null;
  return (
    <div className={styles.banner} role="note" data-training-pending="">
      <span className={styles.text}>
        <strong>{t('trainingPending.title')}</strong> {t('trainingPending.body')}
      </span>
      <Link className={styles.link} to={studyPath(paths.systemETraining, studyId)}>
        {t('trainingPending.link')}
      </Link>
    </div>
  );
}
