import type { ReportKey, ReportResponse } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { AdverseEventsView } from './adverse-events-view.tsx';
import { DeviationsView } from './deviations-view.tsx';
import { EnrollmentView } from './enrollment-view.tsx';
import { MissingFormsView } from './missing-forms-view.tsx';
import { QueryAgingView } from './query-aging-view.tsx';
import styles from './reports.module.css';

/** The chosen report's tables and chart, or its loading state; each report's view in its own file. */
export function ReportView({
  report,
  data,
  busy,
  studyId,
}: {
  report: ReportKey;
  data: ReportResponse | undefined;
  busy: boolean;
  studyId: number;
}) {
  const { t } = useTranslation('reports');
  if (!data) {
    return (
      <p className={styles.loading} role="status">
        {t('loading')}
      </p>
    );
  }
  switch (data.report) {
    case 'enrollment':
      return <EnrollmentView data={data} busy={busy} studyId={studyId} />;
    case 'queryAging':
      return <QueryAgingView data={data} busy={busy} />;
    case 'missingForms':
      return <MissingFormsView data={data} busy={busy} studyId={studyId} />;
    case 'protocolDeviations':
      return <DeviationsView data={data} busy={busy} studyId={studyId} />;
    case 'adverseEvents':
      return <AdverseEventsView data={data} busy={busy} studyId={studyId} />;
  }
  void report;
}
