import type { StudyMembership, SubjectInfoResponse } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { studyTitleIn } from '../../../lib/me.ts';
import { paths, studyPath } from '../../../lib/paths.ts';
import { useStudySummary } from '../api/get-study-summary.ts';
import { useSubjectInfo } from '../api/get-subject-info.ts';
import { IconPopup } from './icon-popup.tsx';
import styles from './shell-popups.module.css';
import popupStyles from './subject-info-popup.module.css';

/**
 * The header's subject-info popup on study pages (spec §2): the study, the user's place in it, and
 * today's work over the user's sites — open and answered queries, SAEs, eCRF pages and pages not
 * SDV-complete, visits overdue and due — from `GET /api/studies/:id/subject-info`.
 */
export function SubjectInfoPopup({ membership }: { membership: StudyMembership }) {
  const { t } = useTranslation('shell');
  return (
    <IconPopup
      id="subject-info-popup"
      title={t('subjectInfo.title')}
      icon={<path d="M8 4h8v3H8zM6 5H5v16h14V5h-1M9 12h6M9 16h4" />}
    >
      {(close) => <SubjectInfoContent membership={membership} close={close} />}
    </IconPopup>
  );
}

function SubjectInfoContent({ membership, close }: { membership: StudyMembership; close: () => void }) {
  const { t, i18n } = useTranslation('shell');
  const summary = useStudySummary(membership.studyId, membership.studyStatus);
  const [showAll, setShowAll] = useState(false);
  const content = summary.data?.content ?? '';
  return (
    <div className={styles.stack}>
      <section>
        <p className={styles.code}>{membership.studyCode}</p>
        <h3 className={styles.studyTitle}>{studyTitleIn(membership, i18n.language)}</h3>
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
      <TodaysWork studyId={membership.studyId} close={close} />
    </div>
  );
}

function TodaysWork({ studyId, close }: { studyId: number; close: () => void }) {
  const { t } = useTranslation('shell');
  const info = useSubjectInfo(studyId);
  const [params] = useSearchParams();
  if (info.isPending) {
    return (
      <section aria-busy="true">
        <h3 className={styles.sectionTitle}>{t('subjectInfo.today')}</h3>
        <p className={styles.empty}>{t('subjectInfo.loading')}</p>
      </section>
    );
  }
  if (info.isError) {
    return (
      <section>
        <h3 className={styles.sectionTitle}>{t('subjectInfo.today')}</h3>
        <div className={styles.empty} role="alert">
          <p className={styles.error}>{t('subjectInfo.loadError')}</p>
          <button type="button" className={styles.textButton} onClick={() => void info.refetch()}>
            {t('subjectInfo.retry')}
          </button>
        </div>
      </section>
    );
  }
  const figures: SubjectInfoResponse = info.data;
  const alarmsUrl = (state: 'overdue' | 'due') =>
    studyPath(paths.taskAlarm, studyId, { state, 'menu-type': params.get('menu-type') ?? undefined });
  // The query list filtered to the state counted (the list reads its filters from the URL).
  const queriesUrl = (state: 'open' | 'answered') =>
    studyPath(paths.query, studyId, { state, 'menu-type': params.get('menu-type') ?? undefined });
  return (
    <>
      <section>
        <h3 className={styles.sectionTitle}>{t('subjectInfo.today')}</h3>
        <dl className={popupStyles.counts}>
          <Count
            label={t('subjectInfo.openQueries')}
            value={figures.openQueries}
            to={queriesUrl('open')}
            onFollow={close}
          />
          <Count
            label={t('subjectInfo.answeredQueries')}
            value={figures.answeredQueries}
            to={queriesUrl('answered')}
            onFollow={close}
          />
          <Count label={t('subjectInfo.seriousAdverseEvents')} value={figures.seriousAdverseEvents} />
        </dl>
      </section>
      <section>
        <h3 className={styles.sectionTitle}>{t('subjectInfo.ecrf')}</h3>
        <dl className={popupStyles.counts}>
          <Count label={t('subjectInfo.ecrfPages')} value={figures.ecrfPages} />
          <Count label={t('subjectInfo.pagesNotSdvComplete')} value={figures.pagesNotSdvComplete} />
        </dl>
        <p className={popupStyles.note}>{t('subjectInfo.sdvNote')}</p>
      </section>
      <section>
        <h3 className={styles.sectionTitle}>{t('subjectInfo.visits')}</h3>
        <dl className={popupStyles.counts}>
          <Count
            label={t('subjectInfo.overdue')}
            value={figures.visitAlarms.overdue}
            to={alarmsUrl('overdue')}
            onFollow={close}
          />
          <Count
            label={t('subjectInfo.due')}
            value={figures.visitAlarms.due}
            to={alarmsUrl('due')}
            onFollow={close}
          />
        </dl>
      </section>
    </>
  );
}

function Count({
  label,
  value,
  to,
  onFollow,
}: {
  label: string;
  value: number;
  to?: string;
  onFollow?: () => void;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {to ? (
          // Named with its label, so the link says what it counts (the number alone says nothing).
          <Link to={to} onClick={onFollow} aria-label={`${label}: ${value}`}>
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
    </div>
  );
}
