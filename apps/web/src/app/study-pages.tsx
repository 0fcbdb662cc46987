import { useTranslation } from 'react-i18next';
import { DashboardPage } from '../features/dashboard/components/dashboard-page.tsx';
import { MonitoringPanelSlot } from '../features/monitoring/components/monitoring-panel-slot.tsx';
import { DashboardNoticePanel } from '../features/notices/components/dashboard-notice-panel.tsx';
import { useStudySummary } from '../features/shell/api/get-study-summary.ts';
import { studyRandomizes, studyTitleIn } from '../lib/me.ts';
import { useStudyOutlet } from './shell-layouts.tsx';

/**
 * `/dashboard/:studyId`: the dashboard feature with the study from the shell, and in row 1 the notices
 * feature's panel and the monitoring feature's central-monitoring panel (features do not import each
 * other; the app puts them together).
 */
export function DashboardRoute() {
  const { membership } = useStudyOutlet();
  const { i18n } = useTranslation();
  const summary = useStudySummary(membership.studyId, membership.studyStatus);
  return (
    <DashboardPage
      study={{
        id: membership.studyId,
        code: membership.studyCode,
        title: studyTitleIn(membership, i18n.language),
        content: summary.data?.content,
        randomizes: studyRandomizes(membership),
      }}
      noticePanel={<DashboardNoticePanel studyId={membership.studyId} />}
      monitoringPanel={<MonitoringPanelSlot studyId={membership.studyId} />}
    />
  );
}
