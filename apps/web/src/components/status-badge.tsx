import type { SubjectStatus } from '@cdms/contract';
import type { ReactNode } from 'react';
import styles from './status-badge.module.css';

/** A subject's status as a pill in the spec's colour; the caller gives the label in its language. */
export function SubjectStatusBadge({ status, children }: { status: SubjectStatus; children: ReactNode }) {
  return (
    <span className={styles.statusBadge} data-status={status}>
      {children}
    </span>
  );
}
