import type { StudySummary } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { dashboardLink } from '../lib/study-links.ts';
import styles from './study-table.module.css';

/** The list view (spec §2): title, approach pills, content (one line), registration date. */
export function StudyTable({ studies }: { studies: readonly StudySummary[] }) {
  const { t } = useTranslation('taskList');
  const navigate = useNavigate();
  return (
    <div className={styles.wrapper}>
      <table className={styles.table}>
        <colgroup>
          <col className={styles.titleColumn} />
          <col className={styles.approachColumn} />
          <col />
          <col className={styles.dateColumn} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">{t('columns.title')}</th>
            <th scope="col">{t('columns.approaches')}</th>
            <th scope="col">{t('columns.content')}</th>
            <th scope="col">{t('columns.registeredOn')}</th>
          </tr>
        </thead>
        <tbody>
          {studies.map((study) => (
            // The whole row opens the dashboard; the title link is the keyboard's way in.
            <tr key={study.id} data-testid="study-row" onClick={() => void navigate(dashboardLink(study))}>
              <td>
                <span className={styles.code}>{study.code}</span>
                <Link
                  to={dashboardLink(study)}
                  className={styles.title}
                  onClick={(event) => event.stopPropagation()}
                >
                  {study.title}
                </Link>
              </td>
              <td>
                <span className={styles.pills}>
                  {study.approaches.map((approach) => (
                    <span key={approach} className={styles.pill}>
                      {approach}
                    </span>
                  ))}
                </span>
              </td>
              <td>
                <span className={styles.content} title={study.content}>
                  {study.content}
                </span>
              </td>
              <td className={styles.date}>{study.registeredOn}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
