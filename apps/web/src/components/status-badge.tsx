import type { AmendmentStatus, QueryStateValue, SubjectStatus } from '@cdms/contract';
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

/**
 * A query's state as a pill (issue 14): open and answered in colour, closed and cancelled muted;
 * `reopened` marks an open query that was sent back at least once.
 */
export function QueryStateBadge({
  state,
  reopened = false,
  children,
}: {
  state: QueryStateValue;
  reopened?: boolean;
  children: ReactNode;
}) {
  return (
    <span className={styles.queryBadge} data-state={state} data-reopened={reopened || undefined}>
      {children}
    </span>
  );
}

/** A study still in design (issue 45): only its designers see it, and it takes no subjects yet. */
export function StudyInDesignBadge({ children }: { children: ReactNode }) {
  return <span className={styles.designBadge}>{children}</span>;
}

/**
 * An amendment's status (issue 49) as a pill: a draft in the colour of work to do, a published one in
 * the info colour, a discarded one muted. The caller gives the word in its language.
 */
export function AmendmentStatusBadge({ status, children }: { status: AmendmentStatus; children: ReactNode }) {
  return (
    <span className={styles.amendmentBadge} data-status={status}>
      {children}
    </span>
  );
}

/**
 * A subject whose blind its PI broke (issue 51, emergency unblinding): in the subject list and on the
 * subject page. Never the group itself. The caller gives the word in its language.
 */
export function UnblindedBadge({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <span className={styles.unblindedBadge} title={title} data-testid="unblinded-badge">
      {children}
    </span>
  );
}
