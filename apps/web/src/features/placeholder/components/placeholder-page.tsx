import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import styles from './placeholder-page.module.css';

/**
 * The shared "page in preparation" screen (spec §2) for menus whose feature comes with a later
 * issue. It sits inside the shell, so the menu stays usable around it.
 */
export function PlaceholderPage() {
  const { t } = useTranslation();
  return (
    <div className={styles.page}>
      <div className={styles.icon}>
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 3l9 16H3zM12 10v4M12 16.5v.5" />
        </svg>
      </div>
      <h1 className={styles.title}>{t('placeholder.title')}</h1>
      <p className={styles.description}>{t('placeholder.description')}</p>
      <Link to={paths.taskList} className={styles.button}>
        {t('unavailable.toTaskList', { ns: 'shell' })}
      </Link>
    </div>
  );
}
