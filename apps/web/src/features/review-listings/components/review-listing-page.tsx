import {
  REVIEW_LISTING_PAGE_SIZES,
  type ReviewListingResponse,
  type ReviewRow,
  type ReviewTable,
  reviewStates,
} from '@cdms/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { readHiddenColumns } from '../../../components/data-table/column-visibility.ts';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { selectColumn } from '../../../components/data-table/select-column.tsx';
import { DateTimeText } from '../../../components/date-time-text.tsx';
import {
  FilterChoice,
  FilterPanel,
  FilterText,
  ListPage,
  nextSort,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { filterPanelKey, panelFieldsOf, useListState } from '../../../lib/list-state.ts';
import { paths } from '../../../lib/paths.ts';
import { detailUrl, MENU_TYPE_PARAM, readId } from '../../../lib/subject-urls.ts';
import {
  downloadReviewListing,
  useMarkReviewed,
  useReviewListing,
  useReviewTables,
} from '../api/review-listings.ts';
import { bulkTargets, cellId, type LabelledTarget, rowId } from '../lib/bulk-targets.ts';
import {
  DEFAULT_REVIEW_FILTERS,
  type ReviewListingFilters,
  type ReviewListingPageSize,
  reviewListingParams,
} from '../lib/review-listing-filters.ts';
import { RAISE_QUERIES_MODAL, RaiseQueriesDialog } from './raise-queries-dialog.tsx';
import styles from './review-listings.module.css';

/**
 * `/review/:studyId` (issue 50 item 4): one form of the study across subjects — a row per form
 * entered, or per row of a repeating section —, its items as columns (chosen in the table's columns
 * menu, kept per listing), filtered, sorted and paged by the server with the state in the URL, and
 * downloadable. Monitors and data managers mark rows reviewed and pick cells (buttons: Tab or the
 * arrow keys, then Enter or Space) or rows to raise one query per item with one text.
 */
export function ReviewListingPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <ReviewListings studyId={studyId} />;
}

/** The table id of a listing: its stored column choice is its own. */
const tableIdOf = (table: string) => `review-listing.${table}`;
const ITEM_COLUMN = 'item:';

type PanelFields = Pick<ReviewListingFilters, 'table' | 'siteId' | 'visitKey' | 'review' | 'search'>;
const EMPTY_PANEL: PanelFields = { table: '', siteId: null, visitKey: '', review: '', search: '' };

function tableLabel(table: ReviewTable, language: 'ko' | 'en'): string {
  return table.groupLabel
    ? `${table.formLabel[language]} · ${table.groupLabel[language]}`
    : table.formLabel[language];
}

function ReviewListings({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('reviewListings');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const { values: applied, apply, searchParams } = useListState(reviewListingParams);
  const tables = useReviewTables(studyId);
  const tableList = tables.data?.tables ?? [];
  // No listing chosen yet: the definition's first.
  const filters: ReviewListingFilters = { ...applied, table: applied.table || (tableList[0]?.name ?? '') };
  const list = useReviewListing(studyId, filters);
  return (
    <ListPage title={t('page.title')}>
      <p className={styles.lead}>{t('page.lead')}</p>
      <ReviewFilterPanel
        // Remounted when the URL's filters change (back/forward, the first listing once loaded).
        key={filterPanelKey(filters, EMPTY_PANEL)}
        filters={filters}
        tables={tableList}
        listing={list.data}
        language={language}
        apply={apply}
      />
      {filters.table === '' ? (
        <p className={styles.lead}>{t('page.chooseForm')}</p>
      ) : (
        <ListingTable
          // Another listing: its own column choice and a fresh selection.
          key={filters.table}
          studyId={studyId}
          filters={filters}
          list={list}
          language={language}
          menuType={searchParams.get(MENU_TYPE_PARAM)}
          onSort={(column) => apply({ ...filters, ...nextSort(filters, column) })}
          onSize={(size) => apply({ ...filters, size })}
        />
      )}
    </ListPage>
  );
}

function ReviewFilterPanel({
  filters,
  tables,
  listing,
  language,
  apply,
}: {
  filters: ReviewListingFilters;
  tables: readonly ReviewTable[];
  listing: ReviewListingResponse | undefined;
  language: 'ko' | 'en';
  apply: (change: Partial<ReviewListingFilters>) => void;
}) {
  const { t } = useTranslation('reviewListings');
  const [draft, setDraft] = useState<PanelFields>(() => panelFieldsOf(filters, EMPTY_PANEL));
  const visits = draft.table === filters.table ? (listing?.visits ?? []) : [];

  function submit() {
    const tableChanged = draft.table !== filters.table;
    // Another listing has other items and visits: its sort and visit start afresh.
    apply({
      ...filters,
      ...draft,
      search: draft.search.trim(),
      ...(tableChanged ? { sort: 'subject', order: 'asc', visitKey: '' } : {}),
    });
  }

  return (
    <FilterPanel
      onSubmit={submit}
      onReset={() => apply({ ...DEFAULT_REVIEW_FILTERS, table: filters.table, size: filters.size })}
    >
      <FilterChoice
        label={t('filters.form')}
        choices={tables.map((table) => table.name)}
        value={draft.table}
        optionLabel={(name) => {
          const table = tables.find((candidate) => candidate.name === name);
          return table ? tableLabel(table, language) : name;
        }}
        onChange={(table) =>
          setDraft({ ...draft, table, visitKey: table === filters.table ? draft.visitKey : '' })
        }
      />
      <SiteFilterChoice
        label={t('filters.site')}
        allSitesLabel={t('filters.allSites')}
        sites={(listing?.sites ?? []).map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
        value={draft.siteId}
        onChange={(siteId) => setDraft({ ...draft, siteId })}
      />
      <FilterChoice
        label={t('filters.visit')}
        choices={['', ...visits.map((visit) => visit.key)]}
        value={draft.visitKey}
        optionLabel={(key) =>
          key === ''
            ? t('filters.allVisits')
            : (visits.find((visit) => visit.key === key)?.label[language] ?? key)
        }
        onChange={(visitKey) => setDraft({ ...draft, visitKey })}
      />
      <FilterChoice
        label={t('filters.review')}
        choices={['', ...reviewStates] as const}
        value={draft.review}
        optionLabel={(state) => (state === '' ? t('filters.all') : t(`review.${state}`))}
        onChange={(review) => setDraft({ ...draft, review })}
      />
      <FilterText
        label={t('filters.search')}
        value={draft.search}
        maxLength={50}
        onChange={(search) => setDraft({ ...draft, search })}
      />
    </FilterPanel>
  );
}

interface ListingTableProps {
  studyId: number;
  filters: ReviewListingFilters;
  list: ReturnType<typeof useReviewListing>;
  language: 'ko' | 'en';
  menuType: string | null;
  onSort: (column: string) => void;
  onSize: (size: ReviewListingPageSize) => void;
}

function ListingTable({ studyId, filters, list, language, menuType, onSort, onSize }: ListingTableProps) {
  const { t } = useTranslation('reviewListings');
  const modals = useModalStack();
  const toast = useToast();
  const mark = useMarkReviewed(studyId, filters.table);
  const [selectedRows, setSelectedRows] = useState<ReadonlySet<string>>(new Set());
  const [selectedCells, setSelectedCells] = useState<ReadonlySet<string>>(new Set());
  const [targets, setTargets] = useState<LabelledTarget[]>([]);
  const data: ReviewListingResponse | undefined =
    list.data?.table.name === filters.table ? list.data : undefined;
  const rows = data?.rows ?? [];
  const mayReview = data?.mayReview ?? false;
  const mayQuery = data?.mayRaiseQueries ?? false;
  const pageKey = JSON.stringify(filters);

  // A new page, filter or sort: the selection was of rows no longer shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared whenever the listing's state changes.
  useEffect(() => {
    setSelectedRows(new Set());
    setSelectedCells(new Set());
  }, [pageKey]);

  const toggle = (set: ReadonlySet<string>, id: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  };
  const visitOf = (row: ReviewRow) => row.visitLabel[language] + (row.row === null ? '' : ` #${row.row + 1}`);
  const labelOf = (key: string) => data?.columns.find((column) => column.key === key)?.label[language] ?? key;
  const shownItemKeys = () => {
    const hidden = new Set(readHiddenColumns(tableIdOf(filters.table)));
    return (data?.columns ?? [])
      .map((column) => column.key)
      .filter((key) => !hidden.has(`${ITEM_COLUMN}${key}`));
  };

  const columns: DataTableColumn<ReviewRow>[] = [];
  if (mayReview || mayQuery)
    columns.push(
      selectColumn<ReviewRow, string>({
        pageRows: rows,
        isSelected: (row) => selectedRows.has(rowId(row)),
        onSelect: (row, on) => setSelectedRows((current) => toggle(current, rowId(row), on)),
        onSelectAll: (on) => setSelectedRows(on ? new Set(rows.map(rowId)) : new Set()),
        selectAllLabel: t('select.all'),
        selectRowLabel: (row) => t('select.row', { subject: row.screeningNumber, visit: visitOf(row) }),
        className: styles.selectCell,
      }),
    );
  columns.push(
    {
      id: 'subject',
      header: t('columns.subject'),
      hideable: false,
      sortKey: 'subject',
      cell: (row) => (
        <a
          className={styles.subjectLink}
          href={detailUrl(
            studyId,
            { id: row.subjectPk, subjectId: row.screeningNumber },
            row.visitKey,
            data?.table.formKey ?? '',
            menuType,
          )}
        >
          {row.screeningNumber}
        </a>
      ),
    },
    { id: 'site', header: t('columns.site'), cell: (row) => row.siteCode },
    { id: 'visit', header: t('columns.visit'), sortKey: 'visit', cell: (row) => row.visitLabel[language] },
  );
  if (data?.table.groupKey)
    columns.push({ id: 'row', header: t('columns.row'), numeric: true, cell: (row) => (row.row ?? 0) + 1 });
  columns.push(
    {
      id: 'status',
      header: t('columns.status'),
      cell: (row) => t(`status.${row.formStatus}`, row.formStatus),
    },
    {
      id: 'savedAt',
      header: t('columns.savedAt'),
      sortKey: 'savedAt',
      wrap: true,
      cell: (row) => <DateTimeText value={row.savedAt} />,
    },
    {
      id: 'review',
      header: t('columns.review'),
      cell: (row) => (
        <>
          <span className={styles.review} data-review={row.review}>
            {t(`review.${row.review}`)}
          </span>
          {row.reviewedBy && row.reviewedAt ? (
            <span className={styles.reviewer}>
              {t('review.by', { name: row.reviewedBy, at: formatDateTimeKst(row.reviewedAt) })}
            </span>
          ) : null}
        </>
      ),
    },
  );
  for (const column of data?.columns ?? []) {
    columns.push({
      id: `${ITEM_COLUMN}${column.key}`,
      header: column.label[language],
      sortKey: `${ITEM_COLUMN}${column.key}`,
      wrap: true,
      cell: (row) => {
        const value = row.cells[column.key] ?? null;
        const text = value ?? <span className={styles.empty}>—</span>;
        if (!mayQuery) return text;
        const id = cellId(row, column.key);
        const pressed = selectedCells.has(id);
        return (
          <button
            type="button"
            className={styles.cellButton}
            aria-pressed={pressed}
            aria-label={`${t('select.cell', { item: column.label[language], subject: row.screeningNumber, visit: visitOf(row) })}: ${value ?? '—'}`}
            data-cell={id}
            onClick={() => setSelectedCells((current) => toggle(current, id, !pressed))}
          >
            {text}
          </button>
        );
      },
    });
  }

  const chosenTargets = () =>
    data ? bulkTargets(data.table, rows, shownItemKeys(), selectedCells, selectedRows) : [];
  const selectedCount = selectedCells.size + selectedRows.size;

  async function markReviewed() {
    const ids = [
      ...new Set(rows.filter((row) => selectedRows.has(rowId(row))).map((row) => row.formInstanceId)),
    ];
    if (ids.length === 0) {
      toast(t('actions.nothingSelected'), 'error');
      return;
    }
    try {
      const result = await mark.mutateAsync(ids);
      toast(t('actions.markDone', { count: result.marked }), 'success');
      setSelectedRows(new Set());
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  }

  function openRaise() {
    const next = chosenTargets();
    if (next.length === 0) {
      toast(t('actions.nothingSelected'), 'error');
      return;
    }
    setTargets(next);
    modals.open(RAISE_QUERIES_MODAL);
  }

  const formLabel = data ? tableLabel(data.table, language) : filters.table;

  return (
    <>
      <PagedListTable<ReviewRow, string, ReviewListingPageSize>
        id={tableIdOf(filters.table)}
        label={t('page.caption', { form: formLabel })}
        columns={columns}
        rows={data ? rows : undefined}
        rowKey={rowId}
        rowAttributes={(row) => ({ 'data-review': row.review, 'data-subject': row.screeningNumber })}
        query={list}
        loadFailed={t('page.loadFailed')}
        emptyMessage={t('page.none')}
        count={(total) => t('page.count', { count: total })}
        sorting={{ mode: 'server', sort: filters.sort, order: filters.order, onSort }}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: REVIEW_LISTING_PAGE_SIZES, onChange: onSize }}
        downloads={{
          run: (format) => downloadReviewListing(studyId, filters, shownItemKeys(), format),
          csvLabel: t('page.downloadCsv'),
          xlsxLabel: t('page.downloadXlsx'),
        }}
        actions={
          mayReview || mayQuery ? (
            <div className={styles.bulkBar}>
              <span className={styles.selectedCount} aria-live="polite">
                {t('select.summary', { count: selectedCount })}
              </span>
              {selectedCount > 0 ? (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    setSelectedCells(new Set());
                    setSelectedRows(new Set());
                  }}
                >
                  {t('select.clear')}
                </Button>
              ) : null}
              {mayReview ? (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={selectedRows.size === 0 || mark.isPending}
                  onClick={() => void markReviewed()}
                >
                  {t('actions.markReviewed')}
                </Button>
              ) : null}
              {mayQuery ? (
                <Button variant="primary" size="sm" disabled={selectedCount === 0} onClick={openRaise}>
                  {t('actions.raiseQueries')}
                </Button>
              ) : null}
            </div>
          ) : null
        }
      />
      {mayQuery ? (
        <RaiseQueriesDialog
          studyId={studyId}
          targets={targets}
          describe={(target) =>
            [
              target.screeningNumber,
              rows.find((row) => row.subjectPk === target.subjectPk && row.visitKey === target.visitKey)
                ?.visitLabel[language] ?? target.visitKey,
              target.row === null ? null : `#${target.row + 1}`,
              labelOf(target.itemKey),
            ]
              .filter(Boolean)
              .join(' · ')
          }
          onDone={() => {
            setSelectedCells(new Set());
            setSelectedRows(new Set());
          }}
        />
      ) : null}
    </>
  );
}
