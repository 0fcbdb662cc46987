import type { Action, StudyMembership } from '@cdms/contract';
import { type ReactNode, useId } from 'react';
import { useMe } from '../lib/me.ts';
import styles from './study-ability-page.module.css';

/**
 * A study page for the holders of one ability (randomization lists, the designer): its heading and
 * introduction for everyone, its content only for a member the server gives the ability to (the
 * membership's `abilities`); anyone else reads why not. The server refuses the page's data the same.
 */
export function StudyAbilityPage({
  studyId,
  ability,
  title,
  intro,
  loading,
  refusal,
  children,
}: {
  studyId: number;
  ability: Action;
  title: string;
  intro: string;
  /** Shown while the signed-in user's memberships load. */
  loading: string;
  /** Shown to a user without the ability. */
  refusal: string;
  children: (membership: StudyMembership) => ReactNode;
}) {
  const headingId = useId();
  const me = useMe();
  const membership = me.data?.memberships.find((candidate) => candidate.studyId === studyId);
  const allowed = membership?.abilities.includes(ability) ?? false;
  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <header>
        <h1 id={headingId} className={styles.pageTitle}>
          {title}
        </h1>
        <p className={styles.intro}>{intro}</p>
      </header>
      {membership && allowed ? (
        children(membership)
      ) : (
        <PageState role={me.isPending ? 'status' : 'alert'}>{me.isPending ? loading : refusal}</PageState>
      )}
    </section>
  );
}

/** A page's state in a framed box: loading, an error with its retry, nothing yet. */
export function PageState({ role, children }: { role?: 'status' | 'alert'; children: ReactNode }) {
  return (
    <div className={styles.state} role={role}>
      {children}
    </div>
  );
}
