import {
  LAB_RESULT_PAGE_SIZES,
  type LabRange,
  type LabResultRow,
  labRangeLimitsText,
  labResultFlagFilters,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { paths, studyPath } from '../../../app/paths.ts';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import {
  FilterChoice,
  FilterPanel,
  FilterText,
  ListLoadError,
  ListTable,
  ListTableMessage,
  listStyles,
  PageSizeSelect,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { useMe } from '../../auth/api/me.ts';
import { useLabRanges, useLabResults, useRetireLabRange } from '../api/lab.ts';
import {
  type LabPageSize,
  type LabResultFilters,
  readLabFilters,
  writeLabFilters,
} from '../lib/lab-filters.ts';
import { type LabTestChoice, labTestChoices } from '../lib/lab-tests.ts';
import styles from './lab.module.css';
import { LAB_RANGE_MODAL, LabRangeDialog } from './lab-range-dialog.tsx';

// Query parameters of the subject pages (the subjects feature's subject-urls.ts; features do not
// import each other, the URL is the contract between them).
const MENU_TYPE_PARAM = 'menu-type';

function resultFormUrl(studyId: number, row: LabResultRow, menuType: string | null): string {
  return studyPath(paths.subjectDetail, studyId, {
    [MENU_TYPE_PARAM]: menuType ?? undefined,
    'subject-id': row.subjectId,
    'subject-pk': String(row.subjectPk),
    'depth-1': row.visitKey,
    'depth-2': 'labTest',
    item: `${row.testKey}Result`,
  });
}

/**
 * `/lab/:studyId` (issue 17 item 3; CRA menu): the sites' laboratory normal ranges — DM and ADMIN add,
 * change and retire them, everyone else reads those of their sites — and the listing of results out
 * of range or judged clinically significant, with site, subject, test and flag in the URL.
 */
export function LabPage() {
  const raw = useParams().studyId;
  const studyId = raw && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Lab studyId={studyId} />;
}

function Lab({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('lab');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const headingId = useId();
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const definition = useStudyDefinition(studyId);
  const tests = labTestChoices(definition.data?.definition, language);
  return (
    <section className={listStyles.page} aria-labelledby={headingId}>
      <div className={listStyles.pageHeader}>
        <h1 id={headingId} className={listStyles.pageTitle}>
          {t('page.title')}
        </h1>
      </div>
      <RangesCard studyId={studyId} tests={tests} sites={membership?.sites ?? []} />
      <ResultsListing studyId={studyId} tests={tests} sites={membership?.sites ?? []} />
    </section>
  );
}

function RangesCard({
  studyId,
  tests,
  sites,
}: {
  studyId: number;
  tests: readonly LabTestChoice[];
  sites: NonNullable<ReturnType<typeof useMe>['data']>['memberships'][number]['sites'];
}) {
  const { t } = useTranslation('lab');
  const modals = useModalStack();
  const alert = useAlert();
  const toast = useToast();
  const [showRetired, setShowRetired] = useState(false);
  const [editing, setEditing] = useState<LabRange | null>(null);
  // One site's ranges at a time to start with (each site has a range per test, some per sex): the
  // reader's first site; null is every site.
  const [chosenSite, setChosenSite] = useState<number | null | undefined>(undefined);
  const siteId = chosenSite === undefined ? (sites[0]?.id ?? null) : chosenSite;
  const ranges = useLabRanges(studyId, showRetired);
  const retire = useRetireLabRange(studyId);
  const canManage = ranges.data?.canManage ?? false;
  const testLabel = new Map(tests.map((test) => [test.testKey, test.label]));
  const testOrder = new Map(tests.map((test, index) => [test.testKey, index]));
  const shown = (ranges.data?.ranges ?? [])
    .filter((range) => siteId === null || range.siteId === siteId)
    .sort(
      (a, b) =>
        a.site.localeCompare(b.site) || (testOrder.get(a.testKey) ?? 0) - (testOrder.get(b.testKey) ?? 0),
    );
  const columns = canManage ? 9 : 8;

  function openDialog(range: LabRange | null) {
    setEditing(range);
    modals.open(LAB_RANGE_MODAL);
  }

  async function retireRange(range: LabRange) {
    const confirmed = await alert.confirm({
      title: t('ranges.retireTitle'),
      message: t('ranges.retireMessage', {
        test: testLabel.get(range.testKey) ?? range.testKey,
        site: range.site,
      }),
      confirmLabel: t('ranges.retire'),
    });
    if (!confirmed) return;
    try {
      await retire.mutateAsync(range.id);
      toast(t('ranges.retired'), 'success');
    } catch (failure) {
      await alert.alert({
        title: t('ranges.retireTitle'),
        message: failure instanceof Error ? failure.message : String(failure),
      });
    }
  }

  return (
    <>
      <div className={listStyles.toolbar}>
        <h2 className={styles.sectionTitle}>{t('ranges.title')}</h2>
        <div className={listStyles.toolbarActions}>
          <SiteFilterChoice
            label={t('columns.site')}
            allSitesLabel={t('results.allSites')}
            sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
            value={siteId}
            onChange={(choice) => setChosenSite(choice)}
          />
          <label className={styles.checkbox}>
            <input type="checkbox" checked={showRetired} onChange={(e) => setShowRetired(e.target.checked)} />
            {t('ranges.showRetired')}
          </label>
          {canManage ? <Button onClick={() => openDialog(null)}>{t('ranges.add')}</Button> : null}
        </div>
      </div>
      {!canManage && ranges.data ? <p className={styles.muted}>{t('ranges.readOnly')}</p> : null}
      {ranges.isError && !ranges.data ? (
        <ListLoadError
          title={t('page.loadFailed')}
          detail={ranges.error.message}
          retryLabel={t('page.retry')}
          onRetry={() => void ranges.refetch()}
        />
      ) : (
        <ListTable
          label={t('ranges.caption')}
          busy={ranges.isFetching}
          head={
            <>
              <th scope="col">{t('columns.site')}</th>
              <th scope="col">{t('columns.test')}</th>
              <th scope="col">{t('columns.range')}</th>
              <th scope="col">{t('columns.unit')}</th>
              <th scope="col">{t('columns.sex')}</th>
              <th scope="col">{t('columns.age')}</th>
              <th scope="col">{t('columns.effectiveFrom')}</th>
              <th scope="col">{t('columns.updatedBy')}</th>
              {canManage ? <th scope="col">{t('columns.actions')}</th> : null}
            </>
          }
        >
          {!ranges.data ? (
            <ListTableMessage columns={columns} loading>
              {t('page.loading')}
            </ListTableMessage>
          ) : shown.length === 0 ? (
            <ListTableMessage columns={columns}>{t('ranges.none')}</ListTableMessage>
          ) : (
            shown.map((range) => (
              <tr
                key={range.id}
                data-retired={range.retired || undefined}
                className={range.retired ? styles.retired : undefined}
              >
                <td>{range.site}</td>
                <td>
                  {testLabel.get(range.testKey) ?? range.testKey}
                  {range.retired ? <span className={styles.tag}>{t('ranges.retiredTag')}</span> : null}
                </td>
                <td>{labRangeLimitsText({ low: range.low, high: range.high })}</td>
                <td>{range.unit}</td>
                <td>{range.sex ? t(`sex.${range.sex}`) : t('sex.any')}</td>
                <td>
                  {range.ageMin === null && range.ageMax === null
                    ? t('age.any')
                    : t('age.band', { min: range.ageMin ?? 0, max: range.ageMax ?? '' })}
                </td>
                <td>{range.effectiveFrom}</td>
                <td>{range.updatedBy}</td>
                {canManage ? (
                  <td className={styles.actions}>
                    {range.retired ? null : (
                      <>
                        <Button variant="secondary" size="sm" onClick={() => openDialog(range)}>
                          {t('ranges.edit')}
                        </Button>
                        <Button variant="ghost" size="sm" onClick={() => void retireRange(range)}>
                          {t('ranges.retire')}
                        </Button>
                      </>
                    )}
                  </td>
                ) : null}
              </tr>
            ))
          )}
        </ListTable>
      )}
      {canManage ? (
        <LabRangeDialog
          key={editing?.id ?? 'new'}
          studyId={studyId}
          sites={sites}
          tests={tests}
          editing={editing}
          onSaved={(range) => setChosenSite(range.siteId)}
        />
      ) : null}
    </>
  );
}

function ResultsListing({
  studyId,
  tests,
  sites,
}: {
  studyId: number;
  tests: readonly LabTestChoice[];
  sites: readonly { id: number; code: string; name: string }[];
}) {
  const { t } = useTranslation('lab');
  const [searchParams, setSearchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const filters = readLabFilters(searchParams);
  const list = useLabResults(studyId, filters);
  const data = list.data;
  const testLabel = new Map(tests.map((test) => [test.testKey, test.label]));
  const [draft, setDraft] = useState(filters);

  function apply(change: Partial<LabResultFilters>) {
    setSearchParams((current) => writeLabFilters(current, { ...filters, ...change, page: 1 }));
  }

  const columns = 9;
  return (
    <>
      <h2 className={styles.sectionTitle}>{t('results.title')}</h2>
      <FilterPanel
        onSubmit={() => apply(draft)}
        onReset={() => {
          const reset = { siteId: null, subject: '', testKey: '', flag: 'all' as const };
          setDraft({ ...draft, ...reset });
          apply(reset);
        }}
      >
        {(actions) => (
          <div className={listStyles.filterRow}>
            <SiteFilterChoice
              label={t('columns.site')}
              allSitesLabel={t('results.allSites')}
              sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
              value={draft.siteId}
              onChange={(siteId) => setDraft({ ...draft, siteId })}
            />
            <FilterChoice
              label={t('columns.test')}
              choices={['', ...tests.map((test) => test.testKey)]}
              value={draft.testKey}
              optionLabel={(choice) =>
                choice === '' ? t('results.allTests') : (testLabel.get(choice) ?? choice)
              }
              onChange={(testKey) => setDraft({ ...draft, testKey })}
            />
            <FilterChoice
              label={t('columns.flag')}
              choices={labResultFlagFilters}
              value={draft.flag}
              optionLabel={(choice) => t(`flagFilter.${choice}`)}
              onChange={(flag) => setDraft({ ...draft, flag })}
            />
            <FilterText
              label={t('columns.subject')}
              value={draft.subject}
              maxLength={100}
              onChange={(subject) => setDraft({ ...draft, subject })}
            />
            {actions}
          </div>
        )}
      </FilterPanel>
      <div className={listStyles.toolbar}>
        <p className={listStyles.total} aria-live="polite">
          {data ? t('results.count', { count: data.total }) : ''}
        </p>
        <div className={listStyles.toolbarActions}>
          <PageSizeSelect<LabPageSize>
            sizes={LAB_RESULT_PAGE_SIZES}
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
          label={t('results.caption')}
          busy={list.isFetching}
          head={
            <>
              <th scope="col">{t('columns.subject')}</th>
              <th scope="col">{t('columns.site')}</th>
              <th scope="col">{t('columns.visit')}</th>
              <th scope="col">{t('columns.test')}</th>
              <th scope="col" className={listStyles.numeric}>
                {t('columns.value')}
              </th>
              <th scope="col">{t('columns.range')}</th>
              <th scope="col">{t('columns.flag')}</th>
              <th scope="col">{t('columns.significance')}</th>
              <th scope="col" className={listStyles.numeric}>
                {t('columns.queries')}
              </th>
            </>
          }
        >
          {!data ? (
            <ListTableMessage columns={columns} loading>
              {t('page.loading')}
            </ListTableMessage>
          ) : data.results.length === 0 ? (
            <ListTableMessage columns={columns}>{t('results.none')}</ListTableMessage>
          ) : (
            data.results.map((row) => (
              <tr key={`${row.subjectPk}-${row.visitKey}-${row.testKey}`}>
                <td>
                  <Link to={resultFormUrl(studyId, row, menuType)} className={listStyles.rowLink}>
                    {row.subjectId}
                  </Link>
                </td>
                <td>{row.site}</td>
                <td>{row.visitKey.toUpperCase()}</td>
                <td>{testLabel.get(row.testKey) ?? row.testKey}</td>
                <td className={listStyles.numeric}>{row.value}</td>
                <td>{row.low === null && row.high === null ? '—' : labRangeLimitsText(row)}</td>
                <td>
                  {row.flag === 'H' || row.flag === 'L' ? (
                    <span className={styles.flag} data-flag={row.flag} title={t(`flag.${row.flag}`)}>
                      {row.flag}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{row.significance ?? t('results.noJudgement')}</td>
                <td className={listStyles.numeric}>{row.openQueryCount}</td>
              </tr>
            ))
          )}
        </ListTable>
      )}
      {data && !list.isPlaceholderData && <Pagination total={data.total} pageSize={filters.size} />}
    </>
  );
}
