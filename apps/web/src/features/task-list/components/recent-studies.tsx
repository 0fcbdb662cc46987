import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRecentStudies } from '../api/get-studies.ts';
import { dashboardLink } from '../lib/study-links.ts';
import styles from './recent-studies.module.css';

/** The strip of studies the user opened last (server-side, so it follows them between browsers). */
export function RecentStudies() {
  const { t } = useTranslation('taskList');
  const recent = useRecentStudies();
  return (
    <section className={styles.strip} aria-labelledby="recent-studies-title">
      <h2 id="recent-studies-title" className={styles.title}>
        {t('recent.title')}
      </h2>
      {recent.isPending ? (
        <p className={styles.muted}>{t('loading')}</p>
      ) : recent.isError ? (
        <p className={styles.muted}>{recent.error.message}</p>
      ) : recent.data.length === 0 ? (
        <p className={styles.muted}>{t('recent.empty')}</p>
      ) : (
        <ul className={styles.list} data-testid="recent-studies">
          {recent.data.map((study) => (
            <li key={study.id}>
              <Link to={dashboardLink(study)} className={styles.chip} title={study.title}>
                <span className={styles.code}>{study.code}</span>
                <span className={styles.name}>{study.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
