import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import styles from './admin-ui.module.css';

/** What someone who is not a system administrator sees on /admin/*: the server's 403, explained. */
export function AccessMessage() {
  const { t } = useTranslation('admin');
  return (
    <section className={`${styles.section} ${styles.state}`} role="alert">
      <h2>{t('noPermission.title')}</h2>
      <p>{t('noPermission.description')}</p>
      <Link to={paths.taskList} className={`${styles.button} ${styles.primary}`}>
        {t('backToTaskList')}
      </Link>
    </section>
  );
}
