import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useDashboard } from '../api/get-dashboard.ts';
import { recordStudyView } from '../api/record-study-view.ts';
import styles from './dashboard-page.module.css';
import { RegistrationPanel } from './registration-panel.tsx';
import { SubjectInfoPanel } from './subject-info-panel.tsx';
import { TargetStatusPanel } from './target-status-panel.tsx';

interface DashboardStudy {
  id: number;
  code: string;
  title: string;
  /** Undefined while it loads. */
  content: string | undefined;
  /** The study randomizes: the counts say how many subjects are randomized. */
  randomizes: boolean;
}

interface DashboardPageProps {
  study: DashboardStudy;
  /** Row 1's notice panel, supplied by the notices feature through the app layer. */
  noticePanel: ReactNode;
  /** Row 1's central-monitoring panel (issue 50), supplied by the monitoring feature through the app layer. */
  monitoringPanel: ReactNode;
}

/**
 * `/dashboard/:id` (spec §2 "Dashboard"): notices and central monitoring (the prototype's AI panel); subject information and the
 * target-status doughnuts; the monthly registration chart. Every figure comes from
 * `GET /api/studies/:id/dashboard`, over the user's sites.
 */
export function DashboardPage({ study, noticePanel, monitoringPanel }: DashboardPageProps) {
  const { t } = useTranslation('dashboard');
  // The institution chosen for the monthly chart; a choice made in another study does not carry over.
  const [choice, setChoice] = useState<{ studyId: number; siteId: number | null }>({
    studyId: study.id,
    siteId: null,
  });
  const siteId = choice.studyId === study.id ? choice.siteId : null;
  const dashboard = useDashboard(study.id, siteId);
  const data = dashboard.data;
  // Without figures each panel says so briefly; the alert above them gives the reason and a retry.
  const problem = dashboard.isError && !data ? t('panelError') : null;

  // Opening a dashboard counts as viewing the study (once per study; a failure only loses the strip entry).
  useEffect(() => {
    recordStudyView(study.id).catch(() => undefined);
  }, [study.id]);

  return (
    <div className={styles.page}>
      <header className={styles.heading}>
        <p className={styles.code}>{study.code}</p>
        <h1 className={styles.title}>{study.title}</h1>
      </header>

      {problem ? (
        <div className={styles.problem} role="alert">
          <span>{t('loadError')}</span>
          {dashboard.error?.message ? <span>{dashboard.error.message}</span> : null}
          <Button variant="secondary" size="sm" onClick={() => void dashboard.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : null}

      <div className={styles.rowTop}>
        <div className={styles.slot}>{noticePanel}</div>
        <div className={styles.slot}>{monitoringPanel}</div>
      </div>

      <div className={styles.rowMiddle}>
        <SubjectInfoPanel
          study={{ ...study, content: study.content ?? data?.study.content }}
          dashboard={data}
          problem={problem}
        />
        <TargetStatusPanel
          targetStatus={data?.targetStatus}
          randomizes={study.randomizes}
          problem={problem}
        />
      </div>

      <RegistrationPanel
        registrations={data?.registrations}
        sites={data?.sites ?? []}
        siteId={siteId}
        onSiteChange={(next) => setChoice({ studyId: study.id, siteId: next })}
        problem={problem}
      />
    </div>
  );
}
