import type { Action, StudyMembership } from '@cdms/contract';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { useMe } from '../lib/me.ts';
import { paths } from '../lib/paths.ts';
import { readId } from '../lib/subject-urls.ts';
import styles from './study-ability-page.module.css';

/**
 * A study page `…/:studyId` for the holders of one ability (randomization lists, the designer, the
 * design versions): the study from the address (an address without a study id is not found), its
 * heading and introduction for everyone, its content only for a member the server gives the ability
 * to (the membership's `abilities`); anyone else reads why not. The server refuses the page's data
 * the same. The texts are the page's namespace's `page.title`, `page.intro`, `page.loading` and
 * `page.noPermission`.
 */
export function StudyAbilityPage({
  ability,
  namespace,
  children,
}: {
  ability: Action;
  /** The page's i18n namespace, holding its `page.*` texts. */
  namespace: string;
  children: (studyId: number, membership: StudyMembership) => ReactNode;
}) {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return (
    <AbilityPage studyId={studyId} ability={ability} namespace={namespace}>
      {(membership) => children(studyId, membership)}
    </AbilityPage>
  );
}

function AbilityPage({
  studyId,
  ability,
  namespace,
  children,
}: {
  studyId: number;
  ability: Action;
  namespace: string;
  children: (membership: StudyMembership) => ReactNode;
}) {
  const { t } = useTranslation(namespace);
  const headingId = useId();
  const me = useMe();
  const membership = me.data?.memberships.find((candidate) => candidate.studyId === studyId);
  const allowed = membership?.abilities.includes(ability) ?? false;
  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <header>
        <h1 id={headingId} className={styles.pageTitle}>
          {t('page.title')}
        </h1>
        <p className={styles.intro}>{t('page.intro')}</p>
      </header>
      {membership && allowed ? (
        children(membership)
      ) : (
        <PageState role={me.isPending ? 'status' : 'alert'}>
          {me.isPending ? t('page.loading') : t('page.noPermission')}
        </PageState>
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
