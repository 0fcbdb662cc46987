import type { SiteSummary } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useMe } from '../../auth/api/me.ts';
import { useSubjects } from '../api/subjects.ts';
import { MENU_TYPE_PARAM, overviewUrl, readId } from '../lib/subject-urls.ts';
import { ADD_SUBJECT_MODAL, AddSubjectModal } from './add-subject-modal.tsx';
import styles from './subjects.module.css';

/**
 * `/subject-list/:studyId`: the subjects of the user's sites and the add-subject modal (spec §2). The full
 * list with filters and columns comes with a later issue; this one shows what registration needs.
 */
export function SubjectListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <SubjectList studyId={studyId} />;
}

function SubjectList({ studyId }: { studyId: number }) {
  const { t } = useTranslation('subjects');
  const [params] = useSearchParams();
  const menuType = params.get(MENU_TYPE_PARAM);
  const navigate = useNavigate();
  const headingId = useId();
  const modals = useModalStack();
  const me = useMe();
  const subjects = useSubjects(studyId);
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const canAdd = membership?.abilities.includes('subject.write') ?? false;
  const sites: SiteSummary[] = membership?.sites ?? [];
  const [modalKey, setModalKey] = useState(0);

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <div className={styles.pageHeader}>
        <div>
          <h1 id={headingId} className={styles.pageTitle}>
            {t('list.title')}
          </h1>
          {subjects.data ? (
            <p className={styles.muted}>{t('list.count', { count: subjects.data.length })}</p>
          ) : null}
        </div>
        {canAdd ? (
          <Button
            onClick={() => {
              setModalKey((key) => key + 1); // a fresh, empty form each time
              modals.open(ADD_SUBJECT_MODAL);
            }}
          >
            + {t('list.add')}
          </Button>
        ) : null}
      </div>

      <div className={styles.card}>
        {subjects.isPending ? (
          <p className={styles.state}>{t('loading')}</p>
        ) : subjects.isError ? (
          <div className={styles.state} role="alert">
            <p>{subjects.error.message || t('loadError')}</p>
            <Button variant="secondary" onClick={() => void subjects.refetch()}>
              {t('retry')}
            </Button>
          </div>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <caption className={styles.visuallyHidden}>{t('list.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('list.columns.number')}</th>
                  <th scope="col">{t('list.columns.subjectId')}</th>
                  <th scope="col">{t('list.columns.initials')}</th>
                  <th scope="col">{t('list.columns.site')}</th>
                  <th scope="col">{t('list.columns.status')}</th>
                  <th scope="col">{t('list.columns.consentDate')}</th>
                  <th scope="col">{t('list.columns.createdAt')}</th>
                </tr>
              </thead>
              <tbody>
                {subjects.data.length === 0 ? (
                  <tr>
                    <td colSpan={7} className={styles.empty}>
                      {t('noData')}
                    </td>
                  </tr>
                ) : (
                  subjects.data.map((subject, index) => (
                    <tr key={subject.id}>
                      <td>{index + 1}</td>
                      <td>
                        <Link to={overviewUrl(studyId, subject, menuType)} className={styles.subjectLink}>
                          {subject.subjectId}
                        </Link>
                      </td>
                      <td>{subject.initials}</td>
                      <td>{subject.siteCode}</td>
                      <td>
                        <span className={styles.statusBadge} data-status={subject.status}>
                          {t(`status.${subject.status}`)}
                        </span>
                      </td>
                      <td>{subject.consentDate}</td>
                      <td>{formatDateTimeKst(subject.createdAt)}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <p className={styles.muted}>{t('list.later')}</p>

      {canAdd ? (
        <AddSubjectModal
          key={modalKey}
          studyId={studyId}
          sites={sites}
          onOpenSubject={(subject) => {
            modals.close(ADD_SUBJECT_MODAL);
            void navigate(overviewUrl(studyId, subject, menuType));
          }}
        />
      ) : null}
    </section>
  );
}
