import type { StudyMembership } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SidePopup } from '../../../components/side-popup.tsx';
import { useStudySummary } from '../api/get-study-summary.ts';
import styles from './shell-popups.module.css';

/**
 * The header's subject-info popup on study pages (spec §2): the study, the user's place in it, and
 * today's work. The counts (open and answered queries, SAE, eCRF pages, pages not SDV-complete) are
 * computed from subject data, which does not exist yet: the popup says so instead of showing numbers.
 */
export function SubjectInfoPopup({ membership }: { membership: StudyMembership }) {
  const { t } = useTranslation('shell');
  return (
    <SidePopup
      id="subject-info-popup"
      title={t('subjectInfo.title')}
      trigger={
        <button
          type="button"
          className={styles.iconButton}
          aria-label={t('subjectInfo.title')}
          title={t('subjectInfo.title')}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M8 4h8v3H8zM6 5H5v16h14V5h-1M9 12h6M9 16h4" />
          </svg>
        </button>
      }
    >
      <SubjectInfoContent membership={membership} />
    </SidePopup>
  );
}

function SubjectInfoContent({ membership }: { membership: StudyMembership }) {
  const { t } = useTranslation('shell');
  const summary = useStudySummary(membership.studyId, membership.studyStatus);
  const [showAll, setShowAll] = useState(false);
  const content = summary.data?.content ?? '';
  return (
    <div className={styles.stack}>
      <section>
        <p className={styles.code}>{membership.studyCode}</p>
        <h3 className={styles.studyTitle}>{membership.studyTitle}</h3>
        {content ? (
          <>
            <p
              className={showAll ? styles.content : `${styles.content} ${styles.clamped}`}
              id="subject-info-content"
            >
              {content}
            </p>
            <button
              type="button"
              className={styles.textButton}
              aria-expanded={showAll}
              aria-controls="subject-info-content"
              onClick={() => setShowAll((value) => !value)}
            >
              {showAll ? t('subjectInfo.showLess') : t('subjectInfo.showMore')}
            </button>
          </>
        ) : null}
      </section>
      <dl className={styles.facts}>
        <div>
          <dt>{t('subjectInfo.roles')}</dt>
          <dd>{membership.roles.map((role) => t(`roles.${role}`, { ns: 'auth' })).join(', ')}</dd>
        </div>
        <div>
          <dt>{t('subjectInfo.sites')}</dt>
          <dd>
            {membership.sites.length === 0
              ? t('subjectInfo.noSites')
              : membership.sites.map((site) => site.name).join(', ')}
          </dd>
        </div>
      </dl>
      <section>
        <h3 className={styles.sectionTitle}>{t('subjectInfo.today')}</h3>
        <p className={styles.empty}>{t('subjectInfo.noSubjectData')}</p>
      </section>
    </div>
  );
}
