import type { StudySummary } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StudyInDesignBadge } from '../../../components/status-badge.tsx';
import { dashboardLink } from '../lib/study-links.ts';
import styles from './study-cards.module.css';

/**
 * The card grid (spec §2): 4 columns, 3 below 1600px, 2 below 1300px, 1 below 1000px (CSS). On hover
 * or keyboard focus an active card swaps its excerpt for one button per approach the user holds.
 */
export function StudyCards({ studies, actions }: { studies: readonly StudySummary[]; actions: boolean }) {
  const { t } = useTranslation('taskList');
  return (
    <ul className={styles.grid}>
      {studies.map((study) => {
        const withActions = actions && study.approaches.length > 0;
        return (
          <li key={study.id}>
            <article
              className={`${styles.card} ${withActions ? styles.withActions : ''}`}
              data-testid="study-card"
              aria-labelledby={`study-card-${study.id}`}
            >
              <div className={styles.meta}>
                <span className={styles.code}>
                  {study.code}
                  {study.status === 'design' && <StudyInDesignBadge>{t('inDesign')}</StudyInDesignBadge>}
                </span>
                <span className={styles.date}>
                  <span className={styles.srOnly}>{t('columns.registeredOn')} </span>
                  {study.registeredOn}
                </span>
              </div>
              <h2 className={styles.title} id={`study-card-${study.id}`}>
                <Link to={dashboardLink(study)}>{study.title}</Link>
              </h2>
              <div className={styles.body}>
                <p className={styles.excerpt}>{study.content}</p>
                {withActions ? (
                  <div className={styles.actions}>
                    {study.approaches.map((approach) => (
                      <Link
                        key={approach}
                        to={dashboardLink(study, approach)}
                        className={styles.approachButton}
                      >
                        {t('card.openAs', { approach })}
                      </Link>
                    ))}
                  </div>
                ) : null}
              </div>
              <div className={styles.footer}>
                {study.approaches.map((approach) => (
                  <span key={approach} className={styles.pill}>
                    {approach}
                  </span>
                ))}
                {study.status === 'ended' ? (
                  <span className={styles.endedPill}>{t('card.ended')}</span>
                ) : null}
              </div>
            </article>
          </li>
        );
      })}
    </ul>
  );
}
