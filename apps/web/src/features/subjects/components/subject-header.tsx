import type { SubjectSummary } from '@cdms/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SubjectStatusBadge } from '../../../components/status-badge.tsx';
import styles from './subjects.module.css';

/** The chosen subject in one line: screening number, initials, site, status, consent date. */
export function SubjectHeader({ subject, children }: { subject: SubjectSummary; children?: ReactNode }) {
  const { t } = useTranslation('subjects');
  return (
    <div className={styles.subjectHeader} data-testid="subject-header">
      <dl className={styles.subjectFacts}>
        <div>
          <dt>{t('list.columns.subjectId')}</dt>
          <dd className={styles.subjectHeaderId}>{subject.subjectId}</dd>
        </div>
        <div>
          <dt>{t('list.columns.initials')}</dt>
          <dd>{subject.initials}</dd>
        </div>
        <div>
          <dt>{t('list.columns.site')}</dt>
          <dd>{subject.siteCode}</dd>
        </div>
        <div>
          <dt>{t('list.columns.status')}</dt>
          <dd>
            <SubjectStatusBadge status={subject.status}>{t(`status.${subject.status}`)}</SubjectStatusBadge>
          </dd>
        </div>
        <div>
          <dt>{t('list.columns.consentDate')}</dt>
          <dd>{subject.consentDate}</dd>
        </div>
      </dl>
      {children}
    </div>
  );
}
