import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import styles from './study-unavailable.module.css';

/**
 * A study page for a study the user is not a member of (or that does not exist): the same answer in
 * both cases, as the server gives (product.md: do not reveal that it exists).
 */
export function StudyUnavailable() {
  const { t } = useTranslation('shell');
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t('unavailable.title')}</h1>
      <p className={styles.description}>{t('unavailable.description')}</p>
      <Link to={paths.taskList} className={styles.button}>
        {t('unavailable.toTaskList')}
      </Link>
    </div>
  );
}
