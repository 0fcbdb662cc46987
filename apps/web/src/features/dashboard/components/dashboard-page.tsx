import type { SiteSummary } from '@cdms/contract';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordStudyView } from '../api/record-study-view.ts';
import styles from './dashboard-page.module.css';

interface DashboardStudy {
  id: number;
  code: string;
  title: string;
  /** Undefined while it loads. */
  content: string | undefined;
}

interface DashboardPageProps {
  study: DashboardStudy;
  /** The user's sites in the study: the registration chart's institution choices. */
  sites: readonly SiteSummary[];
  /** Row 1's notice panel, supplied by the notices feature through the app layer. */
  noticePanel: ReactNode;
}

/**
 * `/dashboard/:id` (spec §2 "Dashboard"): three rows. The subject panels' live counts come with the
 * dashboard API (issue "Subject lifecycle"); until then they say plainly that the figures are not
 * available, never sample numbers.
 */
export function DashboardPage({ study, sites, noticePanel }: DashboardPageProps) {
  const { t } = useTranslation('dashboard');

  // Opening a dashboard counts as viewing the study (once per study; a failure only loses the strip entry).
  useEffect(() => {
    recordStudyView(study.id).catch(() => undefined);
  }, [study.id]);

  return (
    <main className={styles.page}>
      <header className={styles.heading}>
        <p className={styles.code}>{study.code}</p>
        <h1 className={styles.title}>{study.title}</h1>
      </header>

      <div className={styles.rowTop}>
        <div className={styles.slot}>{noticePanel}</div>
        <Panel title={t('ai.title')}>
          <Empty text={t('ai.empty')} />
        </Panel>
      </div>

      <div className={styles.rowMiddle}>
        <Panel title={t('subjectInfo.title')}>
          <dl className={styles.studyFacts}>
            <div>
              <dt>{t('subjectInfo.studyTitle')}</dt>
              <dd>{study.title}</dd>
            </div>
            <div>
              <dt>{t('subjectInfo.code')}</dt>
              <dd>{study.code}</dd>
            </div>
            <div>
              <dt>{t('subjectInfo.content')}</dt>
              <dd className={styles.content}>{study.content ?? t('loading')}</dd>
            </div>
          </dl>
          <div className={styles.subPanels}>
            <section>
              <h3 className={styles.subTitle}>{t('queries.title')}</h3>
              <Empty text={t('noSubjects')} compact />
            </section>
            <section>
              <h3 className={styles.subTitle}>{t('events.title')}</h3>
              <Empty text={t('noSubjects')} compact />
            </section>
          </div>
        </Panel>
        <TargetStatusPanel />
      </div>

      <RegistrationPanel sites={sites} />
    </main>
  );
}

function Panel({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.panel} aria-labelledby={id}>
      <div className={styles.panelHeader}>
        <h2 id={id} className={styles.panelTitle}>
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

function Empty({ text, compact = false }: { text: string; compact?: boolean }) {
  return <p className={compact ? `${styles.empty} ${styles.compact}` : styles.empty}>{text}</p>;
}

/** Spec: a doughnut by gender or age. Without subjects the ring stays empty. */
function TargetStatusPanel() {
  const { t } = useTranslation('dashboard');
  const [by, setBy] = useState<'gender' | 'age'>('gender');
  return (
    <Panel
      title={t('target.title')}
      actions={
        <fieldset className={styles.segmented} aria-label={t('target.by')}>
          {(['gender', 'age'] as const).map((option) => (
            <button key={option} type="button" aria-pressed={by === option} onClick={() => setBy(option)}>
              {t(`target.${option}`)}
            </button>
          ))}
        </fieldset>
      }
    >
      <div className={styles.ringArea}>
        <div className={styles.ring} aria-hidden="true" />
        <p className={styles.ringText}>{t('noSubjects')}</p>
      </div>
    </Panel>
  );
}

function RegistrationPanel({ sites }: { sites: readonly SiteSummary[] }) {
  const { t } = useTranslation('dashboard');
  const [siteId, setSiteId] = useState('');
  return (
    <Panel
      title={t('registration.title')}
      actions={
        <label className={styles.siteSelect}>
          <span className={styles.srOnly}>{t('registration.site')}</span>
          <select value={siteId} onChange={(event) => setSiteId(event.target.value)}>
            <option value="">{t('registration.allSites')}</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <div className={styles.chartArea}>
        <Empty text={t('registration.empty')} />
      </div>
    </Panel>
  );
}
