import type { StudySummary } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  DataTable,
  type DataTableColumn,
  sortedValueColumn,
} from '../../../components/data-table/data-table.tsx';
import { StudyInDesignBadge } from '../../../components/status-badge.tsx';
import { dashboardLink } from '../lib/study-links.ts';
import styles from './study-table.module.css';

/** The list view (spec §2): title, approach pills, content (one line), registration date. */
export function StudyTable({ studies }: { studies: readonly StudySummary[] }) {
  const { t } = useTranslation('taskList');
  const navigate = useNavigate();
  const columns: DataTableColumn<StudySummary>[] = [
    {
      id: 'title',
      header: t('columns.title'),
      hideable: false,
      className: styles.titleColumn,
      headerClassName: styles.titleColumn,
      sortValue: (study) => study.title,
      cell: (study) => (
        <>
          <span className={styles.code}>
            {study.code}
            {study.status === 'design' && <StudyInDesignBadge>{t('inDesign')}</StudyInDesignBadge>}
          </span>
          <Link to={dashboardLink(study)} className={styles.title}>
            {study.title}
          </Link>
        </>
      ),
    },
    {
      id: 'approaches',
      header: t('columns.approaches'),
      className: styles.approachColumn,
      headerClassName: styles.approachColumn,
      cell: (study) => (
        <span className={styles.pills}>
          {study.approaches.map((approach) => (
            <span key={approach} className={styles.pill}>
              {approach}
            </span>
          ))}
        </span>
      ),
    },
    {
      id: 'content',
      header: t('columns.content'),
      className: styles.contentColumn,
      cell: (study) => (
        <span className={styles.content} title={study.content}>
          {study.content}
        </span>
      ),
    },
    sortedValueColumn('registeredOn', t('columns.registeredOn'), (study) => study.registeredOn, {
      className: `${styles.dateColumn} ${styles.date}`,
      headerClassName: styles.dateColumn,
    }),
  ];
  return (
    <DataTable<StudySummary>
      id="study-list"
      label={t('columns.caption')}
      columns={columns}
      rows={studies}
      rowKey={(study) => String(study.id)}
      rowAttributes={() => ({ 'data-testid': 'study-row' })}
      sorting={{ mode: 'client' }}
      fit
      // The whole row opens the dashboard; the title link is the keyboard's way in.
      onRowClick={(study) => void navigate(dashboardLink(study))}
    />
  );
}
