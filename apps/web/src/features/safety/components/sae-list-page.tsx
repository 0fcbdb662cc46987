import { SAE_PAGE_SIZES, type SaeReportSummary, type SaeStatus, saeStatuses } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { FilterChoice, FilterPanel, ListPage, SiteFilterChoice } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths, studyPath } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useSaeReports } from '../api/sae-api.ts';
import { type SaeClockFilter, type SaePageSize, saeClockFilters, saeListParams } from '../lib/sae-filters.ts';
import { SaeClock, useMinuteNow } from './sae-clock.tsx';
import styles from './safety.module.css';

/** The link of one report's page. */
export function saeReportPath(studyId: number, reportId: number): string {
  return studyPath(paths.saeReport, studyId).replace(':reportId', String(reportId));
}

/**
 * `/safety/:studyId` (issue 51 item 1): the SAE reports the reader may see (`sae.read`: the site's
 * staff, its monitor, data management, the safety desk), those on the clock first; each with its
 * 24-hour clock (time left, overdue in red, due time in KST). Filters by site, status and clock in the URL.
 */
export function SaeListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <SaeList studyId={studyId} />;
}

function SaeList({ studyId }: { studyId: number }) {
  const { t } = useTranslation('safety');
  const me = useMe();
  const sites = me.data?.memberships.find((m) => m.studyId === studyId)?.sites ?? [];
  const { values: filters, apply } = useListState(saeListParams);
  const [draft, setDraft] = useState(filters);
  const list = useSaeReports(studyId, filters);
  const now = useMinuteNow();

  const columns: DataTableColumn<SaeReportSummary>[] = [
    {
      id: 'subject',
      header: t('list.subject'),
      hideable: false,
      cell: (report) => (
        <Link to={saeReportPath(studyId, report.id)} className={styles.link}>
          {report.screeningNumber} · #{report.eventNumber}
        </Link>
      ),
    },
    { id: 'term', header: t('list.term'), wrap: true, cell: (report) => report.term || '—' },
    { id: 'site', header: t('list.site'), cell: (report) => report.site },
    {
      id: 'status',
      header: t('list.status'),
      cell: (report) => (
        <span className={styles.status} data-status={report.status}>
          {t(`status.${report.status}`)}
          {report.currentVersion > 1 ? ` · ${t('list.followUp', { number: report.currentVersion - 1 })}` : ''}
        </span>
      ),
    },
    {
      id: 'clock',
      header: t('list.clock'),
      hideable: false,
      cell: (report) => (
        <SaeClock dueAt={report.dueAt} firstSubmittedAt={report.firstSubmittedAt} now={now} />
      ),
    },
    { id: 'awareness', header: t('list.awareness'), cell: (report) => formatDateTimeKst(report.awarenessAt) },
  ];

  return (
    <ListPage title={t('title')}>
      <p className={styles.lead}>{t('lead')}</p>
      <FilterPanel
        onSubmit={() => apply(draft)}
        onReset={() => {
          const reset = { site: null, status: '' as const, overdue: '' as const };
          setDraft({ ...draft, ...reset });
          apply(reset);
        }}
      >
        <SiteFilterChoice
          label={t('list.site')}
          allSitesLabel={t('list.allSites')}
          sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
          value={draft.site}
          onChange={(site) => setDraft({ ...draft, site })}
        />
        <FilterChoice<SaeStatus | ''>
          label={t('list.status')}
          choices={['', ...saeStatuses]}
          value={draft.status}
          optionLabel={(status) => (status === '' ? t('list.allStatuses') : t(`status.${status}`))}
          onChange={(status) => setDraft({ ...draft, status })}
        />
        <FilterChoice<SaeClockFilter>
          label={t('list.clock')}
          choices={saeClockFilters}
          value={draft.overdue}
          optionLabel={(overdue) => t(`list.clockFilter.${overdue || 'all'}`)}
          onChange={(overdue) => setDraft({ ...draft, overdue })}
        />
      </FilterPanel>
      <PagedListTable<SaeReportSummary, string, SaePageSize>
        id="sae-reports"
        label={t('list.caption')}
        columns={columns}
        rows={list.data?.reports}
        rowKey={(report) => String(report.id)}
        rowAttributes={(report) => ({ 'data-report-id': String(report.id), 'data-status': report.status })}
        fit
        query={list}
        loadFailed={t('loadFailed')}
        emptyMessage={t('list.none')}
        count={(total) => t('list.count', { count: total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: SAE_PAGE_SIZES, onChange: (size) => apply({ size }) }}
      />
    </ListPage>
  );
}
