import { REPORT_PAGE_SIZES, type ReportKey, reportKeys } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import {
  FilterChoice,
  FilterPanel,
  ListDownloadButtons,
  ListLoadError,
  ListPage,
  listStyles,
  PageSizeSelect,
  SiteFilterChoice,
  useListDownload,
} from '../../../components/list-page.tsx';
import { useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { downloadReport, useReport } from '../api/reports-api.ts';
import {
  DEVIATION_CHOICES,
  type DeviationChoice,
  isListing,
  type ReportFilters,
  reportListParams,
  SERIOUS_CHOICES,
  type SeriousChoice,
} from '../lib/report-filters.ts';
import { ReportView } from './report-view.tsx';
import styles from './reports.module.css';

/**
 * `/report/:studyId` (issue 17; CRA menu): the five standard reports over the reader's sites — one
 * chosen by the buttons above —, their filters in a panel, CSV and XLSX downloads of what is shown;
 * the report, filters, page size and page live in the URL.
 */
export function ReportsPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Reports studyId={studyId} />;
}

function Reports({ studyId }: { studyId: number }) {
  const { t } = useTranslation('reports');
  const { values: filters, apply } = useListState(reportListParams);
  const report = useReport(studyId, filters);
  const data = report.data?.report === filters.report ? report.data : undefined;
  // The paged listings (missing forms, deviations, adverse events) count their rows and page them.
  const listing = data && 'rows' in data ? data : undefined;
  const me = useMe();
  const sites = me.data?.memberships.find((m) => m.studyId === studyId)?.sites ?? [];
  const { downloading, download } = useListDownload((format: 'csv' | 'xlsx') =>
    downloadReport(studyId, filters, format),
  );

  return (
    <ListPage title={t('title')}>
      <nav className={styles.reportChoice} aria-label={t('choose')}>
        {reportKeys.map((key) => (
          <button
            key={key}
            type="button"
            className={styles.reportButton}
            aria-pressed={filters.report === key}
            onClick={() => apply({ ...filters, report: key })}
          >
            <span className={styles.reportName}>{t(`reports.${key}.name`)}</span>
            <span className={styles.reportHint}>{t(`reports.${key}.hint`)}</span>
          </button>
        ))}
      </nav>

      <ReportFilterPanel
        // A new report starts from the URL's values again.
        key={filters.report}
        filters={filters}
        sites={sites.map((site) => ({ id: site.id, label: `${site.code} ${site.name}` }))}
        onApply={apply}
      />

      <div className={listStyles.toolbar}>
        <p className={listStyles.total} aria-live="polite">
          {listing ? t('total', { count: listing.total }) : ''}
        </p>
        <div className={listStyles.toolbarActions}>
          {isListing(filters.report) ? (
            <PageSizeSelect
              sizes={REPORT_PAGE_SIZES}
              value={filters.size}
              onChange={(size) => apply({ ...filters, size })}
            />
          ) : null}
          <ListDownloadButtons
            downloading={downloading}
            onDownload={(format) => void download(format)}
            csvLabel={t('downloadCsv')}
            xlsxLabel={t('downloadXlsx')}
          />
        </div>
      </div>

      {report.isError && !data ? (
        <ListLoadError
          title={t('loadFailed')}
          detail={report.error.message}
          retryLabel={t('retry')}
          onRetry={() => void report.refetch()}
        />
      ) : (
        <ReportView report={filters.report} data={data} busy={report.isFetching} studyId={studyId} />
      )}
    </ListPage>
  );
}

function ReportFilterPanel({
  filters,
  sites,
  onApply,
}: {
  filters: ReportFilters;
  sites: { id: number; label: string }[];
  onApply: (next: Omit<ReportFilters, 'page'>) => void;
}) {
  const { t } = useTranslation('reports');
  const [fields, setFields] = useState(filters);
  const report: ReportKey = filters.report;
  return (
    <FilterPanel
      onSubmit={() => onApply(fields)}
      onReset={() => {
        const cleared = { ...fields, siteId: null, deviation: 'all' as const, serious: 'all' as const };
        setFields(cleared);
        onApply(cleared);
      }}
    >
      <SiteFilterChoice
        label={t('filters.site')}
        allSitesLabel={t('filters.allSites')}
        sites={sites}
        value={fields.siteId}
        onChange={(siteId) => setFields((current) => ({ ...current, siteId }))}
      />
      {report === 'protocolDeviations' ? (
        <FilterChoice<DeviationChoice>
          label={t('filters.deviation')}
          choices={DEVIATION_CHOICES}
          value={fields.deviation}
          optionLabel={(choice) => t(`deviations.${choice}`)}
          onChange={(deviation) => setFields((current) => ({ ...current, deviation }))}
        />
      ) : null}
      {report === 'adverseEvents' ? (
        <FilterChoice<SeriousChoice>
          label={t('filters.serious')}
          choices={SERIOUS_CHOICES}
          value={fields.serious}
          optionLabel={(choice) => t(`filters.seriousChoices.${choice}`)}
          onChange={(serious) => setFields((current) => ({ ...current, serious }))}
        />
      ) : null}
    </FilterPanel>
  );
}
