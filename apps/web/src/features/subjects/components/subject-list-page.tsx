import {
  type SiteSummary,
  SUBJECT_LIST_PAGE_SIZES,
  type SubjectListPageSize,
  type SubjectListRow,
  type SubjectListSortKey,
  subjectStatusOfValue,
} from '@cdms/contract';
import type { Language } from '@cdms/study';
import { DropdownMenu } from 'radix-ui';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { Button } from '../../../components/button.tsx';
import {
  ListLoadError,
  ListTable,
  ListTableMessage,
  listStyles,
  nextSort,
  PageSizeSelect,
  SortableHeader,
  useListDownload,
} from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { SubjectStatusBadge } from '../../../components/status-badge.tsx';
import { useMe } from '../../auth/api/me.ts';
import { downloadSubjectList, type ExportFormat, useSubjectList } from '../api/subjects.ts';
import {
  readSubjectListFilters,
  type SubjectFilterFields,
  type SubjectListFilters,
  writeSubjectListFilters,
} from '../lib/subject-list-filters.ts';
import { MENU_TYPE_PARAM, overviewUrl, readId } from '../lib/subject-urls.ts';
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

/** The table's columns in the spec's order (§2 "Subject list"); all but the number and note sort. */
const COLUMNS: readonly { key: SubjectListSortKey | 'number' | 'note'; numeric?: boolean }[] = [
  { key: 'number', numeric: true },
  { key: 'subjectId' },
  { key: 'site' },
  { key: 'registrationNumber' },
  { key: 'status' },
  { key: 'gender' },
  { key: 'age', numeric: true },
  { key: 'consentDate' },
  { key: 'registrationDate' },
  { key: 'firstVisitDate' },
  { key: 'lastVisitDate' },
  { key: 'lastVisitDateActual' },
  { key: 'adverseReaction', numeric: true },
  { key: 'unresolvedQuery', numeric: true },
  { key: 'initialSignature' },
  { key: 'registrationFailureReason' },
  { key: 'dropoutReason' },
  { key: 'note' },
];

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
  const [searchParams, setSearchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const filters = readSubjectListFilters(searchParams);
  const list = useSubjectList(studyId, filters);
  const navigate = useNavigate();
  const headingId = useId();
  const modals = useModalStack();
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const canAdd = membership?.abilities.includes('subject.write') ?? false;
  const canExport = membership?.abilities.includes('data.export') ?? false;
  const sites: SiteSummary[] = membership?.sites ?? [];
  // Modals are remounted per opening, so each starts empty and reads fresh data.
  const [addKey, setAddKey] = useState(0);
  const [chosen, setChosen] = useState<{ subject: ListedSubject; opening: number } | null>(null);
  const { downloading, download } = useListDownload((format: ExportFormat) =>
    downloadSubjectList(studyId, filters, format),
  );

  function apply(next: Omit<SubjectListFilters, 'page'>) {
    setSearchParams((current) => writeSubjectListFilters(current, next));
  }

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
            onClick={() => {
              setAddKey((key) => key + 1);
              modals.open(ADD_SUBJECT_MODAL);
            }}
          >
            + {t('list.add')}
          </Button>
        ) : null}
      </div>

      {/* Remounted when the URL's filters change (back/forward), so the form shows what is applied. */}
      <SubjectListFilterPanel
        key={[
          filters.dateType,
          filters.start,
          filters.end,
          filters.status,
          filters.signature,
          filters.search,
        ].join('|')}
        applied={filters}
        onApply={(fields: SubjectFilterFields) => apply({ ...filters, ...fields })}
      />

      <div className={listStyles.toolbar}>
        <p className={listStyles.total} aria-live="polite">
          {data ? t('list.count', { count: data.total }) : ''}
        </p>
        <div className={listStyles.toolbarActions}>
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
        </div>
      </div>

      {list.isError && !data ? (
        <ListLoadError
          title={t('list.loadFailed')}
          detail={list.error.message}
          retryLabel={t('retry')}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <SubjectTable
          rows={data?.subjects}
          busy={list.isFetching}
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
        />
      )}

      {/* Not while the previous filter's rows stand in: the pager would correct the page from a stale total. */}
      {data && !list.isPlaceholderData && <Pagination total={data.total} pageSize={filters.size} />}

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
  busy: boolean;
  filters: SubjectListFilters;
  onSort: (column: SubjectListSortKey) => void;
  subjectUrl: (row: SubjectListRow) => string;
  onHistory: (row: SubjectListRow) => void;
  onDelete: (row: SubjectListRow) => void;
}

/** The wide table: it scrolls sideways inside its frame, the page around it stays put. */
function SubjectTable({ rows, busy, filters, onSort, subjectUrl, onHistory, onDelete }: SubjectTableProps) {
  const { t, i18n } = useTranslation('subjects');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  return (
    <ListTable
      label={t('list.caption')}
      busy={busy}
      head={COLUMNS.map(({ key, numeric }) => {
        const label = t(`list.columns.${key}`);
        if (key === 'number' || key === 'note')
          return (
            <th key={key} scope="col" className={numeric ? listStyles.numeric : undefined}>
              {label}
            </th>
          );
        return (
          <SortableHeader
            key={key}
            column={key}
            label={label}
            numeric={numeric ?? false}
            sort={filters.sort}
            order={filters.order}
            onSort={onSort}
          />
        );
      })}
    >
      {!rows ? (
        <ListTableMessage columns={COLUMNS.length} loading>
          {t('loading')}
        </ListTableMessage>
      ) : rows.length === 0 ? (
        <ListTableMessage columns={COLUMNS.length}>{t('noData')}</ListTableMessage>
      ) : (
        rows.map((row) => (
          <tr key={row.pk}>
            <td className={listStyles.numeric}>{row.number}</td>
            <td>
              <Link to={subjectUrl(row)} className={listStyles.rowLink}>
                {row.subjectId}
              </Link>
            </td>
            <td>{row.site}</td>
            <td>{row.registrationNumber ?? ''}</td>
            <td>
              <SubjectStatusBadge status={subjectStatusOfValue[row.status]}>
                {t(`status.${subjectStatusOfValue[row.status]}`)}
              </SubjectStatusBadge>
            </td>
            <td>{row.gender?.label[language] ?? ''}</td>
            <td className={listStyles.numeric}>{row.age ?? ''}</td>
            <td>{row.consentDate}</td>
            <td>{row.registrationDate}</td>
            <td>{row.firstVisitDate ?? ''}</td>
            <td>{row.lastVisitDate?.label[language] ?? ''}</td>
            <td>{row.lastVisitDateActual ?? ''}</td>
            <td className={listStyles.numeric}>{row.adverseReaction}</td>
            <td className={listStyles.numeric}>{row.unresolvedQuery}</td>
            <td>
              <span className={styles.signature} data-state={row.initialSignature}>
                {t(`list.signatureValues.${row.initialSignature}`)}
              </span>
            </td>
            <td className={styles.reason}>{row.registrationFailureReason?.label[language] ?? ''}</td>
            <td className={styles.reason}>{row.dropoutReason?.label[language] ?? ''}</td>
            <td className={styles.menuCell}>
              <RowMenu row={row} onHistory={onHistory} onDelete={onDelete} />
            </td>
          </tr>
        ))
      )}
    </ListTable>
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
