import {
  LAB_RESULT_PAGE_SIZES,
  type LabRange,
  type LabResultRow,
  labRangeLimitsText,
  labResultFlagFilters,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { useConfirmedChange } from '../../../components/confirmed-change.ts';
import {
  DataTable,
  type DataTableColumn,
  sortedValueColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import {
  FilterChoice,
  FilterPanel,
  FilterText,
  ListPage,
  listStyles,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { detailUrl, MENU_TYPE_PARAM, readId } from '../../../lib/subject-urls.ts';
import { downloadLabResults, useLabRanges, useLabResults, useRetireLabRange } from '../api/lab.ts';
import { type LabPageSize, labListParams } from '../lib/lab-filters.ts';
import { type LabTestChoice, labTestChoices } from '../lib/lab-tests.ts';
import styles from './lab.module.css';
import { LAB_RANGE_MODAL, LabRangeDialog } from './lab-range-dialog.tsx';

/** The result on its lab form (the study's `labPanel` role). */
function resultFormUrl(studyId: number, labForm: string, row: LabResultRow, menuType: string | null): string {
  const subject = { id: row.subjectPk, subjectId: row.subjectId };
  return detailUrl(studyId, subject, row.visitKey, labForm, menuType, `${row.testKey}Result`);
}

/**
 * `/lab/:studyId` (issue 17 item 3; CRA menu): the sites' laboratory normal ranges — DM and ADMIN add,
 * change and retire them, everyone else reads those of their sites — and the listing of results out
 * of range or judged clinically significant, with site, subject, test and flag in the URL.
 */
export function LabPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Lab studyId={studyId} />;
}

function Lab({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('lab');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const definition = useStudyDefinition(studyId);
  const tests = labTestChoices(definition.data?.definition, language);
  return (
    <ListPage title={t('page.title')}>
      <RangesCard studyId={studyId} tests={tests} sites={membership?.sites ?? []} />
      <ResultsListing
        studyId={studyId}
        labForm={definition.data?.definition.roles?.labPanel?.form}
        tests={tests}
        sites={membership?.sites ?? []}
      />
    </ListPage>
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
  const confirmedChange = useConfirmedChange();
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
  const testName = (range: LabRange) => testLabel.get(range.testKey) ?? range.testKey;
  const columns: DataTableColumn<LabRange>[] = [
    { id: 'site', header: t('columns.site'), sortValue: (range) => range.site, cell: (range) => range.site },
    {
      id: 'test',
      header: t('columns.test'),
      hideable: false,
      sortValue: testName,
      cell: (range) => (
        <>
          {testName(range)}
          {range.retired ? <span className={styles.tag}>{t('ranges.retiredTag')}</span> : null}
        </>
      ),
    },
    {
      id: 'range',
      header: t('columns.range'),
      cell: (range) => labRangeLimitsText({ low: range.low, high: range.high }),
    },
    { id: 'unit', header: t('columns.unit'), cell: (range) => range.unit },
    {
      id: 'sex',
      header: t('columns.sex'),
      cell: (range) => (range.sex ? t(`sex.${range.sex}`) : t('sex.any')),
    },
    {
      id: 'age',
      header: t('columns.age'),
      cell: (range) =>
        range.ageMin === null && range.ageMax === null
          ? t('age.any')
          : t('age.band', { min: range.ageMin ?? 0, max: range.ageMax ?? '' }),
    },
    sortedValueColumn('effectiveFrom', t('columns.effectiveFrom'), (range) => range.effectiveFrom),
    { id: 'updatedBy', header: t('columns.updatedBy'), cell: (range) => range.updatedBy },
    ...(canManage
      ? [
          {
            id: 'actions',
            header: t('columns.actions'),
            hideable: false,
            // A flex box inside the cell: the cell itself stays a table cell.
            cell: (range: LabRange) =>
              range.retired ? null : (
                <div className={styles.actions}>
                  <Button variant="secondary" size="sm" onClick={() => openDialog(range)}>
                    {t('ranges.edit')}
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => void retireRange(range)}>
                    {t('ranges.retire')}
                  </Button>
                </div>
              ),
          },
        ]
      : []),
  ];

  function openDialog(range: LabRange | null) {
    setEditing(range);
    modals.open(LAB_RANGE_MODAL);
  }

  async function retireRange(range: LabRange) {
    await confirmedChange(
      {
        title: t('ranges.retireTitle'),
        message: t('ranges.retireMessage', {
          test: testLabel.get(range.testKey) ?? range.testKey,
          site: range.site,
        }),
        confirmLabel: t('ranges.retire'),
      },
      () => retire.mutateAsync(range.id),
      t('ranges.retired'),
    );
  }

  return (
    <>
      <h2 className={styles.sectionTitle}>{t('ranges.title')}</h2>
      {!canManage && ranges.data ? <p className={styles.muted}>{t('ranges.readOnly')}</p> : null}
      <DataTable<LabRange>
        id="lab-ranges"
        label={t('ranges.caption')}
        columns={columns}
        // In site and test order as they come; a header sorts them otherwise.
        rows={ranges.data ? shown : undefined}
        rowKey={(range) => String(range.id)}
        rowAttributes={(range) => ({ 'data-retired': range.retired ? 'true' : undefined })}
        rowClassName={(range) => (range.retired ? styles.retired : undefined)}
        sorting={{ mode: 'client' }}
        {...tableLoadState(ranges, t('page.loadFailed'))}
        emptyMessage={t('ranges.none')}
        actions={
          <>
            <SiteFilterChoice
              label={t('columns.site')}
              allSitesLabel={t('results.allSites')}
              sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
              value={siteId}
              onChange={(choice) => setChosenSite(choice)}
            />
            <label className={styles.checkbox}>
              <input
                type="checkbox"
                checked={showRetired}
                onChange={(e) => setShowRetired(e.target.checked)}
              />
              {t('ranges.showRetired')}
            </label>
            {canManage ? <Button onClick={() => openDialog(null)}>{t('ranges.add')}</Button> : null}
          </>
        }
      />
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
  labForm,
  tests,
  sites,
}: {
  studyId: number;
  /** The lab form results link to; none while the definition loads (or for a study without a lab panel). */
  labForm: string | undefined;
  tests: readonly LabTestChoice[];
  sites: readonly { id: number; code: string; name: string }[];
}) {
  const { t } = useTranslation('lab');
  const { values: filters, apply, searchParams } = useListState(labListParams);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const list = useLabResults(studyId, filters);
  const testLabel = new Map(tests.map((test) => [test.testKey, test.label]));
  const [draft, setDraft] = useState(filters);

  const columns: DataTableColumn<LabResultRow>[] = [
    {
      id: 'subject',
      header: t('columns.subject'),
      hideable: false,
      cell: (row) =>
        labForm === undefined ? (
          row.subjectId
        ) : (
          <Link to={resultFormUrl(studyId, labForm, row, menuType)} className={listStyles.rowLink}>
            {row.subjectId}
          </Link>
        ),
    },
    { id: 'site', header: t('columns.site'), cell: (row) => row.site },
    { id: 'visit', header: t('columns.visit'), cell: (row) => row.visitKey.toUpperCase() },
    {
      id: 'test',
      header: t('columns.test'),
      hideable: false,
      cell: (row) => testLabel.get(row.testKey) ?? row.testKey,
    },
    { id: 'value', header: t('columns.value'), numeric: true, cell: (row) => row.value },
    {
      id: 'range',
      header: t('columns.range'),
      cell: (row) => (row.low === null && row.high === null ? '—' : labRangeLimitsText(row)),
    },
    {
      id: 'flag',
      header: t('columns.flag'),
      cell: (row) =>
        row.flag === 'H' || row.flag === 'L' ? (
          <span className={styles.flag} data-flag={row.flag} title={t(`flag.${row.flag}`)}>
            {row.flag}
          </span>
        ) : (
          '—'
        ),
    },
    {
      id: 'significance',
      header: t('columns.significance'),
      cell: (row) => row.significance ?? t('results.noJudgement'),
    },
    { id: 'queries', header: t('columns.queries'), numeric: true, cell: (row) => row.openQueryCount },
  ];
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
          onChange={(subject) => setDraft({ ...draft, subject })}
        />
      </FilterPanel>
      <PagedListTable<LabResultRow, string, LabPageSize>
        id="lab-results"
        label={t('results.caption')}
        columns={columns}
        rows={list.data?.results}
        rowKey={(row) => `${row.subjectPk}-${row.visitKey}-${row.testKey}`}
        query={list}
        loadFailed={t('page.loadFailed')}
        emptyMessage={t('results.none')}
        count={(total) => t('results.count', { count: total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: LAB_RESULT_PAGE_SIZES, onChange: (size) => apply({ size }) }}
        downloads={{
          run: (format) => downloadLabResults(studyId, filters, format),
          csvLabel: t('results.downloadCsv'),
          xlsxLabel: t('results.downloadXlsx'),
        }}
      />
    </>
  );
}
