import {
  SDV_PAGE_SIZES,
  type SdvCounts,
  type SdvFormRef,
  type SdvSubjectRow,
  type SdvSubjectSortKey,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import { Fragment, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { paths, studyPath } from '../../../app/paths.ts';
import { Button } from '../../../components/button.tsx';
import {
  ListLoadError,
  ListTable,
  ListTableMessage,
  listStyles,
  nextSort,
  PageSizeSelect,
  SortableHeader,
} from '../../../components/list-page.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { SdvMark } from '../../../components/record-marks.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useMe } from '../../auth/api/me.ts';
import {
  useSdvNext,
  useSdvSites,
  useSdvSubject,
  useSdvSubjects,
  useVerifyVisit,
} from '../api/sdv-progress.ts';
import { readSdvFilters, type SdvFilters, type SdvPageSize, writeSdvFilters } from '../lib/sdv-filters.ts';
import styles from './sdv.module.css';
import { SdvFilterPanel } from './sdv-filter-panel.tsx';
import { SdvPlanPanel } from './sdv-plan-panel.tsx';

// Query parameters of the subject pages (the subjects feature's subject-urls.ts; features do not
// import each other, the URL is the contract between them).
const MENU_TYPE_PARAM = 'menu-type';

/** The form a link opens: the subject's form page at that visit and form. */
function formUrl(studyId: number, form: SdvFormRef, menuType: string | null): string {
  return studyPath(paths.subjectDetail, studyId, {
    [MENU_TYPE_PARAM]: menuType ?? undefined,
    'subject-id': form.subjectId,
    'subject-pk': String(form.subjectPk),
    'depth-1': form.visitKey,
    'depth-2': form.formKey,
  });
}

const SUBJECT_COLUMNS: readonly { key: string; sort?: SdvSubjectSortKey; numeric?: boolean }[] = [
  { key: 'subjectId', sort: 'subjectId' },
  { key: 'site', sort: 'site' },
  // The percentage first: on a narrow screen it stays in view while the counts scroll.
  { key: 'percent', sort: 'percent' },
  { key: 'verifiedItems', sort: 'verifiedItems', numeric: true },
  { key: 'plannedItems', sort: 'plannedItems', numeric: true },
  { key: 'changedItems', sort: 'changedItems', numeric: true },
  { key: 'forms', numeric: true },
  { key: 'planScope' },
];

/**
 * `/sdv/:studyId` (issue 15; CRA menu): source data verification against the study's plan, by site,
 * then subject (filters, sort, size and page in the URL), a subject unfolded to its visits and forms
 * with links to each form; the monitor's "next form to verify"; the plan, which DM and ADMIN change.
 */
export function SdvPage() {
  const raw = useParams().studyId;
  const studyId = raw && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Sdv studyId={studyId} />;
}

function Sdv({ studyId }: { studyId: number }) {
  const { t } = useTranslation('sdv');
  const [searchParams, setSearchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const filters = readSdvFilters(searchParams);
  const headingId = useId();
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const sites = useSdvSites(studyId);
  const list = useSdvSubjects(studyId, filters);
  const canVerify = list.data?.canVerify ?? false;
  const next = useSdvNext(studyId, filters.siteId, canVerify);

  function apply(change: Partial<SdvFilters>, keepPage = false) {
    const nextFilters = { ...filters, ...change };
    setSearchParams((current) =>
      writeSdvFilters(current, keepPage ? nextFilters : { ...nextFilters, page: 1, open: null }),
    );
  }

  const data = list.data;
  const rows = data?.subjects;
  return (
    <section className={listStyles.page} aria-labelledby={headingId}>
      <div className={listStyles.pageHeader}>
        <h1 id={headingId} className={listStyles.pageTitle}>
          {t('page.title')}
        </h1>
        {canVerify ? (
          <div className={styles.next}>
            {next.data?.next ? (
              <Link to={formUrl(studyId, next.data.next, menuType)} className={styles.nextLink}>
                {t('page.next', { subject: next.data.next.subjectId })}
              </Link>
            ) : next.data ? (
              <span className={styles.muted}>{t('page.nothingNext')}</span>
            ) : null}
          </div>
        ) : null}
      </div>

      <SdvPlanPanel studyId={studyId} />

      <ListTable
        label={t('sites.caption')}
        busy={sites.isFetching}
        head={
          <>
            <th scope="col">{t('sites.site')}</th>
            <th scope="col">{t('columns.percent')}</th>
            <th scope="col" className={listStyles.numeric}>
              {t('sites.subjects')}
            </th>
            <th scope="col" className={listStyles.numeric}>
              {t('columns.verifiedItems')}
            </th>
            <th scope="col" className={listStyles.numeric}>
              {t('columns.plannedItems')}
            </th>
            <th scope="col" className={listStyles.numeric}>
              {t('columns.changedItems')}
            </th>
            <th scope="col" className={listStyles.numeric}>
              {t('columns.forms')}
            </th>
          </>
        }
      >
        {sites.isError ? (
          <ListTableMessage columns={7}>{sites.error.message}</ListTableMessage>
        ) : !sites.data ? (
          <ListTableMessage columns={7} loading>
            {t('page.loading')}
          </ListTableMessage>
        ) : (
          <>
            {sites.data.sites.map((site) => (
              <tr
                key={site.siteId}
                data-site={site.site}
                aria-current={filters.siteId === site.siteId || undefined}
              >
                <th scope="row" className={styles.rowHead}>
                  <button
                    type="button"
                    className={styles.linkButton}
                    aria-pressed={filters.siteId === site.siteId}
                    onClick={() => apply({ siteId: filters.siteId === site.siteId ? null : site.siteId })}
                  >
                    {site.site} {site.siteName}
                  </button>
                </th>
                <CountCells
                  counts={site.counts}
                  subjects={t('sites.subjectCounts', {
                    complete: site.completeSubjects,
                    total: site.subjects,
                  })}
                />
              </tr>
            ))}
            <tr className={styles.totalRow}>
              <th scope="row" className={styles.rowHead}>
                {t('sites.study')}
              </th>
              <CountCells
                counts={sites.data.study.counts}
                subjects={t('sites.subjectCounts', {
                  complete: sites.data.study.completeSubjects,
                  total: sites.data.study.subjects,
                })}
              />
            </tr>
          </>
        )}
      </ListTable>

      {/* Remounted when the URL's filters change (back/forward), so the form shows what is applied. */}
      <SdvFilterPanel
        key={[filters.siteId, filters.subject, filters.state].join('|')}
        applied={filters}
        sites={membership?.sites ?? []}
        onApply={(fields) => apply(fields)}
      />

      <div className={listStyles.toolbar}>
        <p className={listStyles.total} aria-live="polite">
          {data ? t('page.count', { count: data.total }) : ''}
        </p>
        <div className={listStyles.toolbarActions}>
          <PageSizeSelect<SdvPageSize>
            sizes={SDV_PAGE_SIZES}
            value={filters.size}
            onChange={(size) => apply({ size })}
          />
        </div>
      </div>

      {list.isError && !data ? (
        <ListLoadError
          title={t('page.loadFailed')}
          detail={list.error.message}
          retryLabel={t('page.retry')}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <ListTable
          label={t('subjects.caption')}
          busy={list.isFetching}
          head={SUBJECT_COLUMNS.map(({ key, sort, numeric }) =>
            sort ? (
              <SortableHeader
                key={key}
                column={sort}
                label={t(`columns.${key}`)}
                numeric={numeric ?? false}
                sort={filters.sort}
                order={filters.order}
                onSort={(column) => apply(nextSort(filters, column))}
              />
            ) : (
              <th key={key} scope="col" className={numeric ? listStyles.numeric : undefined}>
                {t(`columns.${key}`)}
              </th>
            ),
          )}
        >
          {!rows ? (
            <ListTableMessage columns={SUBJECT_COLUMNS.length} loading>
              {t('page.loading')}
            </ListTableMessage>
          ) : rows.length === 0 ? (
            <ListTableMessage columns={SUBJECT_COLUMNS.length}>{t('page.noData')}</ListTableMessage>
          ) : (
            rows.map((row) => (
              <SubjectRows
                key={row.subjectPk}
                studyId={studyId}
                row={row}
                open={filters.open === row.subjectPk}
                menuType={menuType}
                onToggle={() => apply({ open: filters.open === row.subjectPk ? null : row.subjectPk }, true)}
              />
            ))
          )}
        </ListTable>
      )}

      {data && !list.isPlaceholderData && <Pagination total={data.total} pageSize={filters.size} />}
    </section>
  );
}

/** The percentage with its bar, subjects complete, items verified and planned, changed, forms complete. */
function CountCells({ counts, subjects }: { counts: SdvCounts; subjects: string }) {
  const { t } = useTranslation('sdv');
  return (
    <>
      <td>
        <Progress percent={counts.percent} />
      </td>
      <td className={listStyles.numeric}>{subjects}</td>
      <td className={listStyles.numeric}>{counts.verifiedItems}</td>
      <td className={listStyles.numeric}>{counts.plannedItems}</td>
      <td className={listStyles.numeric}>{counts.changedItems}</td>
      <td className={listStyles.numeric}>
        {t('sites.formCounts', { complete: counts.completeForms, total: counts.plannedForms })}
      </td>
    </>
  );
}

/** A percentage as text and a bar; "—" when nothing is planned. */
export function Progress({ percent }: { percent: number | null }) {
  const { t } = useTranslation('sdv');
  if (percent === null) return <span className={styles.muted}>{t('page.nothingPlanned')}</span>;
  return (
    <span className={styles.progress}>
      <span className={styles.bar} aria-hidden="true">
        <span className={styles.barFill} style={{ width: `${percent}%` }} data-complete={percent === 100} />
      </span>
      <span className={styles.percent}>{percent}%</span>
    </span>
  );
}

/** A subject's row and, unfolded, its visits with their forms. */
function SubjectRows({
  studyId,
  row,
  open,
  menuType,
  onToggle,
}: {
  studyId: number;
  row: SdvSubjectRow;
  open: boolean;
  menuType: string | null;
  onToggle: () => void;
}) {
  const { t } = useTranslation('sdv');
  const detailId = useId();
  return (
    <>
      <tr data-subject={row.subjectId}>
        <td>
          <button
            type="button"
            className={styles.linkButton}
            aria-expanded={open}
            aria-controls={open ? detailId : undefined}
            onClick={onToggle}
          >
            <span aria-hidden="true" className={styles.caret}>
              {open ? '▾' : '▸'}
            </span>
            {row.subjectId}
          </button>
        </td>
        <td>{row.site}</td>
        <td>
          <Progress percent={row.counts.percent} />
        </td>
        <td className={listStyles.numeric}>{row.counts.verifiedItems}</td>
        <td className={listStyles.numeric}>{row.counts.plannedItems}</td>
        <td className={listStyles.numeric}>{row.counts.changedItems}</td>
        <td className={listStyles.numeric}>
          {t('sites.formCounts', { complete: row.counts.completeForms, total: row.counts.plannedForms })}
        </td>
        <td>{t(`planScopes.${row.planScope}`)}</td>
      </tr>
      {open ? (
        <tr className={styles.detailRow}>
          <td colSpan={SUBJECT_COLUMNS.length} id={detailId}>
            <SubjectDetail studyId={studyId} subjectPk={row.subjectPk} menuType={menuType} />
          </td>
        </tr>
      ) : null}
    </>
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
