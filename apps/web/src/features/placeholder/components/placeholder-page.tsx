import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import styles from '../../errors/components/error-page.module.css';

/** The shared "page in preparation" screen for menus whose feature has not been built yet. */
export function PlaceholderPage() {
  const { t } = useTranslation();
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>{t('placeholder.title')}</h1>
      <p className={styles.description}>{t('placeholder.description')}</p>
      <Link to={paths.landing} className={styles.button}>
        {t('placeholder.backHome')}
      </Link>
    </main>
  );
}
