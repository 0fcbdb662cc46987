import type { AdminStudy } from '@cdms/contract';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudies } from '../api/get-studies.ts';
import styles from './admin-ui.module.css';
import { QueryStatus } from './query-status.tsx';
import { StudySelect, useSelectedStudy } from './study-select.tsx';

/**
 * An admin page: a section named by its heading, the description under it and, when `onAdd` is
 * given, the add button beside it.
 */
export function AdminSection({
  heading,
  description,
  addLabel,
  onAdd,
  children,
}: {
  heading: string;
  description: string;
  addLabel: string;
  onAdd?: () => void;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHeader}>
        <div>
          <h2 id={headingId} className={styles.heading}>
            {heading}
          </h2>
          <p className={styles.description}>{description}</p>
        </div>
        {onAdd && (
          <button type="button" className={`${styles.button} ${styles.primary}`} onClick={onAdd}>
            {addLabel}
          </button>
        )}
      </div>
      {children}
    </section>
  );
}

/**
 * An admin page over one study (sites, memberships): the studies' load state, the study choice in
 * the URL, and `children` for the chosen study; the add button shows once there is a study.
 */
export function StudyAdminSection({
  onAdd,
  children,
  ...section
}: {
  heading: string;
  description: string;
  addLabel: string;
  onAdd: () => void;
  children: (study: AdminStudy) => ReactNode;
}) {
  const { t } = useTranslation('admin');
  const studies = useStudies();
  const study = useSelectedStudy(studies.data);
  return (
    <AdminSection {...section} onAdd={study ? onAdd : undefined}>
      <QueryStatus
        isPending={studies.isPending}
        error={studies.error}
        onRetry={() => void studies.refetch()}
      />
      {studies.data && !study && <p className={styles.state}>{t('study.none')}</p>}
      {studies.data && study && (
        <>
          <div className={styles.toolbar}>
            <StudySelect studies={studies.data} selected={study} />
          </div>
          {children(study)}
        </>
      )}
    </AdminSection>
  );
}
