import {
  SDV_PAGE_SIZES,
  type SdvFormRef,
  type SdvSiteRow,
  type SdvSitesResponse,
  type SdvSubjectRow,
  type SdvSubjectSortKey,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import { Fragment, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { ListPage, nextSort } from '../../../components/list-page.tsx';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { SdvMark } from '../../../components/record-marks.tsx';
import { siteFilterColumn } from '../../../components/site-subject-filters.tsx';
import { useToast } from '../../../components/toast.tsx';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { detailUrl, MENU_TYPE_PARAM, readId } from '../../../lib/subject-urls.ts';
import {
  useSdvNext,
  useSdvSites,
  useSdvSubject,
  useSdvSubjects,
  useVerifyVisit,
} from '../api/sdv-progress.ts';
import { type SdvFilters, type SdvPageSize, sdvListParams } from '../lib/sdv-filters.ts';
import styles from './sdv.module.css';
import { EMPTY_SDV_FILTER_FIELDS, SdvFilterPanel } from './sdv-filter-panel.tsx';
import { SdvPlanPanel } from './sdv-plan-panel.tsx';

/** The form a link opens: the subject's form page at that visit and form. */
function formUrl(studyId: number, form: SdvFormRef, menuType: string | null): string {
  return detailUrl(
    studyId,
    { id: form.subjectPk, subjectId: form.subjectId },
    form.visitKey,
    form.formKey,
    menuType,
  );
}

/** A line of the sites table: a site, or the study's total beneath them (no site). */
type SiteLine = SdvSitesResponse['study'] & Partial<Pick<SdvSiteRow, 'siteId' | 'site' | 'siteName'>>;

/**
 * `/sdv/:studyId` (issue 15; CRA menu): source data verification against the study's plan, by site,
 * then subject (filters, sort, size and page in the URL), a subject unfolded to its visits and forms
 * with links to each form; the monitor's "next form to verify"; the plan, which DM and ADMIN change.
 */
export function SdvPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Sdv studyId={studyId} />;
}

function Sdv({ studyId }: { studyId: number }) {
  const { t } = useTranslation('sdv');
  const { values: filters, apply: applyList, searchParams } = useListState(sdvListParams);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const detailIdPrefix = useId();
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const sites = useSdvSites(studyId);
  const list = useSdvSubjects(studyId, filters);
  const canVerify = list.data?.canVerify ?? false;
  const next = useSdvNext(studyId, filters.siteId, canVerify);

  // A change of filter, sort or size folds the unfolded subject; unfolding keeps the page.
  function apply(change: Partial<SdvFilters>, keepPage = false) {
    applyList(keepPage ? change : { ...change, open: null }, { keepPage });
  }

  const formCounts = (line: Pick<SdvSubjectRow, 'counts'>) =>
    t('sites.formCounts', { complete: line.counts.completeForms, total: line.counts.plannedForms });

  const siteColumns: DataTableColumn<SiteLine>[] = [
    siteFilterColumn<SiteLine>({
      header: t('sites.site'),
      studyLabel: t('sites.study'),
      selected: filters.siteId,
      onSelect: (siteId) => apply({ siteId }),
      buttonClassName: styles.linkButton,
    }),
    {
      id: 'percent',
      header: t('columns.percent'),
      hideable: false,
      cell: (line) => <Progress percent={line.counts.percent} />,
    },
    {
      id: 'subjects',
      header: t('sites.subjects'),
      numeric: true,
      hideable: false,
      cell: (line) => t('sites.subjectCounts', { complete: line.completeSubjects, total: line.subjects }),
    },
    ...countColumns<SiteLine>(),
    { id: 'forms', header: t('columns.forms'), numeric: true, hideable: false, cell: formCounts },
  ];

  /** Items verified, planned and changed since verified: the same three columns in both tables. */
  function countColumns<Line extends Pick<SdvSubjectRow, 'counts'>>(
    sortable = false,
  ): DataTableColumn<Line, SdvSubjectSortKey>[] {
    return (['verifiedItems', 'plannedItems', 'changedItems'] as const).map((key) => ({
      id: key,
      header: t(`columns.${key}`),
      numeric: true,
      hideable: sortable,
      sortKey: sortable ? key : undefined,
      cell: (line: Line) => line.counts[key],
    }));
  }

  const subjectColumns: DataTableColumn<SdvSubjectRow, SdvSubjectSortKey>[] = [
    {
      id: 'subjectId',
      header: t('columns.subjectId'),
      sortKey: 'subjectId',
      hideable: false,
      cell: (row) => {
        const open = filters.open === row.subjectPk;
        return (
          <button
            type="button"
            className={styles.linkButton}
            aria-expanded={open}
            aria-controls={open ? `${detailIdPrefix}-${row.subjectPk}` : undefined}
            onClick={() => apply({ open: open ? null : row.subjectPk }, true)}
          >
            <span aria-hidden="true" className={styles.caret}>
              {open ? '▾' : '▸'}
            </span>
            {row.subjectId}
          </button>
        );
      },
    },
    { id: 'site', header: t('columns.site'), sortKey: 'site', cell: (row) => row.site },
    // The percentage first: on a narrow screen it stays in view while the counts scroll.
    {
      id: 'percent',
      header: t('columns.percent'),
      sortKey: 'percent',
      cell: (row) => <Progress percent={row.counts.percent} />,
    },
    ...countColumns<SdvSubjectRow>(true),
    { id: 'forms', header: t('columns.forms'), numeric: true, cell: formCounts },
    { id: 'planScope', header: t('columns.planScope'), cell: (row) => t(`planScopes.${row.planScope}`) },
  ];

  return (
    <ListPage
      title={t('page.title')}
      headerActions={
        canVerify ? (
          <div className={styles.next}>
            {next.data?.next ? (
              <Link to={formUrl(studyId, next.data.next, menuType)} className={styles.nextLink}>
                {t('page.next', { subject: next.data.next.subjectId })}
              </Link>
            ) : next.data ? (
              <span className={styles.muted}>{t('page.nothingNext')}</span>
            ) : null}
          </div>
        ) : null
      }
    >
      <SdvPlanPanel studyId={studyId} />

      <DataTable<SiteLine>
        id="sdv-sites"
        label={t('sites.caption')}
        columns={siteColumns}
        rows={sites.data?.sites}
        rowKey={(line) => String(line.siteId ?? 'study')}
        rowAttributes={(line) => ({ 'data-site': line.site })}
        footerRows={sites.data ? [sites.data.study] : undefined}
        {...tableLoadState(sites, t('page.loadFailed'))}
      />

      <SdvFilterPanel
        key={filterPanelKey(filters, EMPTY_SDV_FILTER_FIELDS)}
        applied={filters}
        sites={membership?.sites ?? []}
        onApply={(fields) => apply(fields)}
      />

      <PagedListTable<SdvSubjectRow, SdvSubjectSortKey, SdvPageSize>
        id="sdv-subjects"
        label={t('subjects.caption')}
        columns={subjectColumns}
        rows={list.data?.subjects}
        rowKey={(row) => String(row.subjectPk)}
        rowAttributes={(row) => ({ 'data-subject': row.subjectId })}
        sorting={{
          mode: 'server',
          sort: filters.sort,
          order: filters.order,
          onSort: (column) => apply(nextSort(filters, column)),
        }}
        // The unfolded subject: its visits and forms in a row beneath it.
        expandedRow={(row) =>
          filters.open === row.subjectPk
            ? {
                id: `${detailIdPrefix}-${row.subjectPk}`,
                content: <SubjectDetail studyId={studyId} subjectPk={row.subjectPk} menuType={menuType} />,
              }
            : null
        }
        query={list}
        loadFailed={t('page.loadFailed')}
        emptyMessage={t('page.noData')}
        count={(total) => t('page.count', { count: total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: SDV_PAGE_SIZES, onChange: (size) => apply({ size }) }}
      />
    </ListPage>
  );
}

/** A percentage as text and a bar; "—" when nothing is planned. */
export function Progress({ percent }: { percent: number | null }) {
  const { t } = useTranslation('sdv');
  if (percent === null) return <span className={styles.muted}>{t('page.nothingPlanned')}</span>;
  return (
    <span className={styles.progress}>
      <ProgressBar value={percent} max={100} tone={percent === 100 ? 'done' : 'partial'} width="10rem" />
      <span className={styles.percent}>{percent}%</span>
    </span>
  );
}

/** One subject's visits, each with its forms: state against the plan, counts, a link to the form. */
function SubjectDetail({
  studyId,
  subjectPk,
  menuType,
}: {
  studyId: number;
  subjectPk: number;
  menuType: string | null;
}) {
  const { t, i18n } = useTranslation('sdv');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const detail = useSdvSubject(studyId, subjectPk);
  const verifyVisit = useVerifyVisit(studyId);
  const toast = useToast();

  async function verify(visitKey: string) {
    try {
      const result = await verifyVisit.mutateAsync({ subjectPk, visitKey });
      toast(t('subjects.visitVerified', { count: result.verified }), 'success');
    } catch (error) {
      // A lock (423) or nothing left (409): the server's words, in the user's language.
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  }

  if (detail.isPending) return <p className={styles.muted}>{t('page.loading')}</p>;
  if (detail.isError) return <p role="alert">{detail.error.message}</p>;
  const { subject, visits, nextForm } = detail.data;
  const visitsWithWork = visits.filter((visit) => visit.state !== 'notRequired');
  return (
    <div className={styles.detail}>
      {nextForm && detail.data.canVerify ? (
        <Link to={formUrl(studyId, nextForm, menuType)} className={styles.nextLink}>
          {t('subjects.nextOfSubject')}
        </Link>
      ) : null}
      {visitsWithWork.length === 0 ? (
        <p className={styles.muted}>{t('subjects.nothingPlanned')}</p>
      ) : (
        <ul className={styles.visits} aria-label={t('subjects.visitsOf', { subject: subject.subjectId })}>
          {visitsWithWork.map((visit) => (
            <li key={visit.visitKey} className={styles.visit} data-visit={visit.visitKey}>
              <div className={styles.visitHead}>
                <span className={styles.visitLabel}>{visit.label[language]}</span>
                <SdvMark state={visit.state} />
                <span className={styles.muted}>
                  {t('subjects.itemCounts', {
                    verified: visit.counts.verifiedItems,
                    planned: visit.counts.plannedItems,
                  })}
                </span>
                {detail.data.canVerify && visit.state !== 'complete' ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={verifyVisit.isPending}
                    aria-label={t('subjects.verifyVisitOf', { visit: visit.label[language] })}
                    onClick={() => void verify(visit.visitKey)}
                  >
                    {t('subjects.verifyVisit')}
                  </Button>
                ) : null}
              </div>
              <ul className={styles.forms}>
                {visit.forms
                  .filter((form) => form.state !== 'notRequired')
                  .map((form) => (
                    <Fragment key={form.formKey}>
                      <li className={styles.form} data-form-state={form.state}>
                        <Link
                          to={formUrl(
                            studyId,
                            {
                              subjectPk: subject.subjectPk,
                              subjectId: subject.subjectId,
                              visitKey: visit.visitKey,
                              formKey: form.formKey,
                            },
                            menuType,
                          )}
                          className={styles.formLink}
                        >
                          {form.label[language]}
                        </Link>
                        <SdvMark state={form.state} />
                        <span className={styles.muted}>
                          {t('subjects.itemCounts', {
                            verified: form.counts.verifiedItems,
                            planned: form.counts.plannedItems,
                          })}
                          {form.counts.changedItems > 0
                            ? ` · ${t('subjects.changed', { count: form.counts.changedItems })}`
                            : ''}
                        </span>
                      </li>
                    </Fragment>
                  ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
