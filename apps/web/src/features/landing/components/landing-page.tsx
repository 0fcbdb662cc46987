import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageToggle } from '../../../components/language-toggle.tsx';
import { paths } from '../../../lib/paths.ts';
import { LandingBackground } from './landing-background.tsx';
import styles from './landing-page.module.css';

/**
 * `/`: the start page (prototype-spec §2). No side menu or header. `accountArea` is the login
 * button or account menu, supplied by the router from the auth feature.
 */
export function LandingPage({ accountArea }: { accountArea?: ReactNode }) {
  const { t } = useTranslation('landing');
  return (
    <div className={styles.page}>
      <LandingBackground />
      <header className={styles.topBar}>
        <span className={styles.brand}>CDMS</span>
        <div className={styles.topActions}>
          <LanguageToggle />
          {accountArea}
        </div>
      </header>
      <main className={styles.hero}>
        <h1 className={styles.title}>{t('title')}</h1>
        <p className={styles.subtitle}>{t('subtitle')}</p>
        <Link to={paths.taskList} className={styles.start}>
          {t('start')}
          <span aria-hidden="true" className={styles.arrow}>
            →
          </span>
        </Link>
      </main>
      <footer className={styles.footer}>{t('footer')}</footer>
    </div>
  );
}
