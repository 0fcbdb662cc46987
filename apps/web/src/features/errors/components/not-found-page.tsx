import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageToggle } from '../../../components/language-toggle.tsx';
import { paths } from '../../../lib/paths.ts';
import styles from './error-page.module.css';

/** `/404`: every unknown path is redirected here. */
export function NotFoundPage() {
  const { t } = useTranslation('errors');
  return (
    <main className={styles.page}>
      <div className={styles.toggle}>
        <LanguageToggle tone="dark" />
      </div>
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className={styles.title}>{t('notFound.title')}</h1>
      <p className={styles.description}>{t('notFound.description')}</p>
      <Link to={paths.landing} className={styles.button}>
        {t('notFound.backHome')}
      </Link>
    </main>
  );
}
