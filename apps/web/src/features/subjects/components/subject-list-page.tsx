import {
  type SiteSummary,
  SUBJECT_LIST_PAGE_SIZES,
  type SubjectListPageSize,
  type SubjectListRow,
  type SubjectListSortKey,
  subjectStatusOfValue,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import type { TFunction } from 'i18next';
import { DropdownMenu } from 'radix-ui';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import {
  DataTable,
  type DataTableColumn,
  type DataTableProps,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { listStyles, nextSort, PageSizeSelect, useListDownload } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SubjectStatusBadge, UnblindedBadge } from '../../../components/status-badge.tsx';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { studyRandomizes, useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { MENU_TYPE_PARAM, overviewUrl, readId } from '../../../lib/subject-urls.ts';
import { downloadSubjectList, type ExportFormat, useSubjectList } from '../api/subjects.ts';
import {
  EMPTY_FILTER_FIELDS,
  type SubjectFilterFields,
  type SubjectListFilters,
  subjectListParams,
} from '../lib/subject-list-filters.ts';
import { ADD_SUBJECT_MODAL, AddSubjectModal } from './add-subject-modal.tsx';
import styles from './subject-list.module.css';
import { SubjectListFilterPanel } from './subject-list-filter-panel.tsx';
import {
  DeleteSubjectModal,
  type ListedSubject,
  SUBJECT_DELETE_MODAL,
  SUBJECT_HISTORY_MODAL,
  SubjectHistoryModal,
} from './subject-list-modals.tsx';
import { TrainingPendingBanner } from './training-pending-banner.tsx';

/**
 * `/subject-list/:studyId` (prototype-spec §2 "Subject list"): every subject of the user's sites
 * with the spec's columns computed by the server, filters, sort and page size in the URL, add
 * subject, download (DM, ADMIN) and a row menu with the edit history and delete.
 */
export function SubjectListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <SubjectList studyId={studyId} />;
}

function SubjectList({ studyId }: { studyId: number }) {
  const { t } = useTranslation('subjects');
  const { values: filters, apply, searchParams } = useListState(subjectListParams);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const list = useSubjectList(studyId, filters);
  const navigate = useNavigate();
  const headingId = useId();
  const modals = useModalStack();
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const canAdd = membership?.abilities.includes('subject.write') ?? false;
  // The study's training gate (issue 51): registering waits for the required training.
  const trainingPending = membership?.trainingPending ?? false;
  const canExport = membership?.abilities.includes('data.export') ?? false;
  const sites: SiteSummary[] = membership?.sites ?? [];
  // A study without randomization has no randomization number to show.
  const randomizes = membership ? studyRandomizes(membership) : false;
  // Modals are remounted per opening, so each starts empty and reads fresh data.
  const [addKey, setAddKey] = useState(0);
  const [chosen, setChosen] = useState<{ subject: ListedSubject; opening: number } | null>(null);
  const { downloading, download } = useListDownload((format: ExportFormat) =>
    downloadSubjectList(studyId, filters, format),
  );

  function openRowModal(name: string, row: SubjectListRow) {
    setChosen((current) => ({
      subject: { pk: row.pk, subjectId: row.subjectId },
      opening: (current?.opening ?? 0) + 1,
    }));
    modals.open(name);
  }

  const data = list.data;
  return (
    <section className={listStyles.page} aria-labelledby={headingId}>
      <div className={listStyles.pageHeader}>
        <h1 id={headingId} className={listStyles.pageTitle}>
          {t('list.title')}
        </h1>
        {canAdd ? (
          <Button
            disabled={trainingPending}
            onClick={() => {
              setAddKey((key) => key + 1);
              modals.open(ADD_SUBJECT_MODAL);
            }}
          >
            + {t('list.add')}
          </Button>
        ) : null}
      </div>
      {canAdd ? <TrainingPendingBanner studyId={studyId} /> : null}

      <SubjectListFilterPanel
        key={filterPanelKey(filters, EMPTY_FILTER_FIELDS)}
        applied={filters}
        randomizes={randomizes}
        onApply={(fields: SubjectFilterFields) => apply({ ...filters, ...fields })}
      />

      <SubjectTable
        rows={data?.subjects}
        randomizes={randomizes}
        {...tableLoadState(list, t('list.loadFailed'))}
        filters={filters}
        onSort={(column) => apply({ ...filters, ...nextSort(filters, column) })}
        subjectUrl={(row) =>
          overviewUrl(
            studyId,
            { id: row.pk, subjectId: row.subjectId, registrationNumber: row.registrationNumber },
            menuType,
          )
        }
        onHistory={(row) => openRowModal(SUBJECT_HISTORY_MODAL, row)}
        onDelete={(row) => openRowModal(SUBJECT_DELETE_MODAL, row)}
        summary={data ? t('list.count', { count: data.total }) : ''}
        // Not while the previous filter's rows stand in: the pager would correct the page from a stale total.
        pager={data && !list.isPlaceholderData ? { total: data.total, pageSize: filters.size } : null}
        actions={
          <>
            <PageSizeSelect<SubjectListPageSize>
              sizes={SUBJECT_LIST_PAGE_SIZES}
              value={filters.size}
              onChange={(size) => apply({ ...filters, size })}
            />
            {canExport ? (
              <DropdownMenu.Root>
                <DropdownMenu.Trigger asChild>
                  <Button variant="secondary" disabled={downloading} aria-busy={downloading}>
                    {downloading ? t('list.downloading') : t('list.download')} ▾
                  </Button>
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content className={styles.menu} align="end" sideOffset={4}>
                    <DropdownMenu.Item className={styles.menuItem} onSelect={() => void download('csv')}>
                      {t('list.downloadCsv')}
                    </DropdownMenu.Item>
                    <DropdownMenu.Item className={styles.menuItem} onSelect={() => void download('xlsx')}>
                      {t('list.downloadXlsx')}
                    </DropdownMenu.Item>
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
            ) : null}
          </>
        }
      />

      {canAdd ? (
        <AddSubjectModal
          key={addKey}
          studyId={studyId}
          sites={sites}
          onOpenSubject={(subject) => {
            modals.close(ADD_SUBJECT_MODAL);
            void navigate(overviewUrl(studyId, subject, menuType));
          }}
        />
      ) : null}
      <SubjectHistoryModal
        key={`history-${chosen?.opening}`}
        studyId={studyId}
        subject={chosen?.subject ?? null}
      />
      <DeleteSubjectModal
        key={`delete-${chosen?.opening}`}
        studyId={studyId}
        subject={chosen?.subject ?? null}
      />
    </section>
  );
}

interface SubjectTableProps {
  rows: SubjectListRow[] | undefined;
  /** The study randomizes: the randomization number has a column. */
  randomizes: boolean;
  busy: boolean;
  error: DataTableProps<SubjectListRow>['error'];
  filters: SubjectListFilters;
  onSort: (column: SubjectListSortKey) => void;
  subjectUrl: (row: SubjectListRow) => string;
  onHistory: (row: SubjectListRow) => void;
  onDelete: (row: SubjectListRow) => void;
  summary: ReactNode;
  actions: ReactNode;
  pager: DataTableProps<SubjectListRow>['pager'];
}

/** The spec's columns in its order (§2 "Subject list"); all but the number and the row menu sort. */
function subjectColumns(
  t: TFunction<'subjects'>,
  language: Language,
  {
    randomizes,
    subjectUrl,
    onHistory,
    onDelete,
  }: Pick<SubjectTableProps, 'randomizes' | 'subjectUrl' | 'onHistory' | 'onDelete'>,
): DataTableColumn<SubjectListRow, SubjectListSortKey>[] {
  const text = (key: SubjectListSortKey, cell: (row: SubjectListRow) => ReactNode, numeric = false) => ({
    id: key,
    header: t(`list.columns.${key}`),
    sortKey: key,
    numeric,
    cell,
  });
  return [
    { id: 'number', header: t('list.columns.number'), numeric: true, cell: (row) => row.number },
    {
      ...text('subjectId', (row) => (
        <>
          <Link to={subjectUrl(row)} className={listStyles.rowLink}>
            {row.subjectId}
          </Link>
          {row.unblinded ? (
            <>
              {' '}
              <UnblindedBadge title={t('list.unblindedHint')}>{t('list.unblinded')}</UnblindedBadge>
            </>
          ) : null}
        </>
      )),
      hideable: false,
    },
    text('site', (row) => row.site),
    ...(randomizes ? [text('registrationNumber', (row) => row.registrationNumber ?? '')] : []),
    text('status', (row) => (
      <SubjectStatusBadge status={subjectStatusOfValue[row.status]}>
        {t(`status.${subjectStatusOfValue[row.status]}`)}
      </SubjectStatusBadge>
    )),
    text('gender', (row) => row.gender?.label[language] ?? ''),
    text('age', (row) => row.age ?? '', true),
    text('consentDate', (row) => row.consentDate),
    text('registrationDate', (row) => row.registrationDate),
    text('firstVisitDate', (row) => row.firstVisitDate ?? ''),
    text('lastVisitDate', (row) => row.lastVisitDate?.label[language] ?? ''),
    text('lastVisitDateActual', (row) => row.lastVisitDateActual ?? ''),
    text('adverseReaction', (row) => row.adverseReaction, true),
    text('unresolvedQuery', (row) => row.unresolvedQuery, true),
    text('initialSignature', (row) => (
      <span className={styles.signature} data-state={row.initialSignature}>
        {t(`list.signatureValues.${row.initialSignature}`)}
      </span>
    )),
    {
      ...text('registrationFailureReason', (row) => row.registrationFailureReason?.label[language] ?? ''),
      className: styles.reason,
    },
    { ...text('dropoutReason', (row) => row.dropoutReason?.label[language] ?? ''), className: styles.reason },
    {
      id: 'note',
      header: t('list.columns.note'),
      hideable: false,
      className: styles.menuCell,
      cell: (row) => <RowMenu row={row} onHistory={onHistory} onDelete={onDelete} />,
    },
  ];
}

/** The wide table: it scrolls sideways inside its frame, the page around it stays put. */
function SubjectTable({
  rows,
  busy,
  error,
  filters,
  onSort,
  summary,
  actions,
  pager,
  ...links
}: SubjectTableProps) {
  const { t, i18n } = useTranslation('subjects');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  return (
    <DataTable<SubjectListRow, SubjectListSortKey>
      id="subject-list"
      label={t('list.caption')}
      columns={subjectColumns(t, language, links)}
      rows={rows}
      rowKey={(row) => String(row.pk)}
      busy={busy}
      error={error}
      sorting={{ mode: 'server', sort: filters.sort, order: filters.order, onSort }}
      emptyMessage={t('noData')}
      summary={summary}
      actions={actions}
      pager={pager}
    />
  );
}

function RowMenu({
  row,
  onHistory,
  onDelete,
}: {
  row: SubjectListRow;
  onHistory: (row: SubjectListRow) => void;
  onDelete: (row: SubjectListRow) => void;
}) {
  const { t } = useTranslation('subjects');
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={styles.moreButton}
        aria-label={t('list.moreOptions', { subject: row.subjectId })}
      >
        <span aria-hidden="true">⋮</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.menu} align="end" sideOffset={4}>
          <DropdownMenu.Item className={styles.menuItem} onSelect={() => onHistory(row)}>
            {t('list.menu.history')}
          </DropdownMenu.Item>
          {row.canDelete ? (
            <DropdownMenu.Item
              className={`${styles.menuItem} ${styles.menuItemDanger}`}
              onSelect={() => onDelete(row)}
            >
              {t('list.menu.delete')}
            </DropdownMenu.Item>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
