import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import styles from './error-page.module.css';

/** The fallback screen when a page throws while rendering (prototype-spec §8). */
export function RouteErrorPage() {
  const { t } = useTranslation('errors');
  const error = useRouteError();
  console.error(error);
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>{t('unexpected.title')}</h1>
      <p className={styles.description}>{t('unexpected.description')}</p>
      <button type="button" className={styles.button} onClick={() => window.location.reload()}>
        {t('unexpected.reload')}
      </button>
    </main>
  );
}
