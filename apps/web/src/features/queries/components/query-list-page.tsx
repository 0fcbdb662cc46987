import { QUERY_LIST_PAGE_SIZES, type QueryListRow, type QueryListSortKey } from '@cdms/contract';
import type { Language } from '@cdms/study';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { selectColumn } from '../../../components/data-table/select-column.tsx';
import { ListPage, listStyles, nextSort } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { QUERY_THREAD_MODAL, QueryThreadPanel } from '../../../components/query-thread-panel.tsx';
import { QueryStateBadge } from '../../../components/status-badge.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { detailUrl, MENU_TYPE_PARAM, readId } from '../../../lib/subject-urls.ts';
import { toggled } from '../../../lib/toggled.ts';
import { downloadQueryList, useQueryList } from '../api/query-list.ts';
import {
  EMPTY_QUERY_FILTER_FIELDS,
  type QueryFilterFields,
  type QueryListFilters,
  type QueryListPageSize,
  queryListParams,
} from '../lib/query-list-filters.ts';
import { BULK_QUERY_MODAL, type BulkAction, BulkQueryDialog } from './bulk-query-dialog.tsx';
import styles from './queries.module.css';
import { QueryListFilterPanel } from './query-list-filter-panel.tsx';

/** The form of a query's subject, at its item (`item`: the form page scrolls to it). */
function formUrl(studyId: number, row: QueryListRow, menuType: string | null): string {
  const subject = { ...row.subject, id: row.subject.pk };
  return detailUrl(studyId, subject, row.visitKey, row.formKey, menuType, row.itemPath || undefined);
}

/**
 * `/query/:studyId` (issue 14): every query of the reader's sites with filters, sort, page size and
 * page in the URL; a row opens its thread in the side panel; monitors (`canManage`) select rows and
 * close or cancel them in bulk; CSV and XLSX downloads of the filtered list.
 */
export function QueryListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <QueryList studyId={studyId} />;
}

function QueryList({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('queries');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const { values: filters, apply: applyList, searchParams } = useListState(queryListParams);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const list = useQueryList(studyId, filters);
  const definition = useStudyDefinition(studyId);
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.studyId === studyId);
  const modals = useModalStack();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [bulkAction, setBulkAction] = useState<BulkAction>('close');
  const [thread, setThread] = useState<QueryListRow | null>(null);

  function apply(next: Omit<QueryListFilters, 'page'>) {
    setSelected(new Set());
    applyList(next);
  }

  function openThread(row: QueryListRow) {
    setThread(row);
    if (!modals.isOpen(QUERY_THREAD_MODAL)) modals.open(QUERY_THREAD_MODAL);
  }

  function openBulk(action: BulkAction) {
    setBulkAction(action);
    modals.open(BULK_QUERY_MODAL);
  }

  const data = list.data;
  const rows = data?.queries;
  const canManage = data?.canManage ?? false;
  const pageIds = rows?.map((row) => row.id) ?? [];
  const chosen = pageIds.filter((id) => selected.has(id));
  const toggle = (id: number, on: boolean) => setSelected((current) => toggled(current, id, on));

  const columns: DataTableColumn<QueryListRow, QueryListSortKey>[] = [
    ...(canManage
      ? [
          selectColumn<QueryListRow, QueryListSortKey>({
            pageRows: rows ?? [],
            isSelected: (row) => selected.has(row.id),
            onSelect: (row, on) => toggle(row.id, on),
            onSelectAll: (on) => setSelected(on ? new Set(pageIds) : new Set()),
            selectAllLabel: t('list.selectAll'),
            selectRowLabel: (row) => t('list.selectRow', { number: row.id }),
            className: styles.selectCell,
          }),
        ]
      : []),
    {
      id: 'number',
      header: t('list.columns.number'),
      numeric: true,
      hideable: false,
      cell: (row) => (
        <button
          type="button"
          className={styles.numberButton}
          aria-label={t('list.openThread', { number: row.id })}
          onClick={() => openThread(row)}
        >
          #{row.id}
        </button>
      ),
    },
    {
      id: 'subjectId',
      header: t('list.columns.subjectId'),
      sortKey: 'subjectId',
      cell: (row) => (
        <Link to={formUrl(studyId, row, menuType)} className={listStyles.rowLink}>
          {row.subject.subjectId}
        </Link>
      ),
    },
    { id: 'site', header: t('list.columns.site'), sortKey: 'site', cell: (row) => row.subject.site },
    {
      id: 'visit',
      header: t('list.columns.visit'),
      sortKey: 'visit',
      // Visit, form and item break between words: on one line each they pushed kind, state and
      // assignee beyond the frame at 1000 px (issue 43 item 8).
      wrap: true,
      cell: (row) => row.visitLabel[language],
    },
    {
      id: 'form',
      header: t('list.columns.form'),
      sortKey: 'form',
      wrap: true,
      cell: (row) => row.formLabel[language],
    },
    {
      id: 'item',
      header: t('list.columns.item'),
      wrap: true,
      className: styles.itemCell,
      cell: (row) => <span title={row.itemLabel[language]}>{row.itemLabel[language]}</span>,
    },
    { id: 'kind', header: t('list.columns.kind'), sortKey: 'kind', cell: (row) => t(`kinds.${row.kind}`) },
    {
      id: 'state',
      header: t('list.columns.state'),
      sortKey: 'state',
      cell: (row) => (
        <>
          <QueryStateBadge state={row.state} reopened={row.reopened}>
            {t(`states.${row.state}`)}
          </QueryStateBadge>
          {row.reopened ? <span className={styles.reopened}>{t('list.reopenedMark')}</span> : null}
        </>
      ),
    },
    { id: 'assignee', header: t('list.columns.assignee'), cell: (row) => t(`assignees.${row.assignee}`) },
    {
      id: 'openedAt',
      header: t('list.columns.openedAt'),
      sortKey: 'openedAt',
      cell: (row) => formatDateTimeKst(row.openedAt).slice(0, 10),
    },
    { id: 'age', header: t('list.columns.age'), sortKey: 'age', numeric: true, cell: (row) => row.ageDays },
    {
      id: 'lastMessageAt',
      header: t('list.columns.lastMessageAt'),
      sortKey: 'lastMessageAt',
      className: styles.lastMessage,
      cell: (row) => (
        <span title={row.lastMessage.text[language]}>
          <span className={styles.lastAuthor}>{row.lastMessage.author?.name ?? t('thread.system')}</span>
          {row.lastMessage.text[language]}
        </span>
      ),
    },
    {
      id: 'messageCount',
      header: t('list.columns.messageCount'),
      numeric: true,
      cell: (row) => row.messageCount,
    },
  ];

  return (
    <ListPage title={t('list.title')}>
      <QueryListFilterPanel
        key={filterPanelKey(filters, EMPTY_QUERY_FILTER_FIELDS)}
        applied={filters}
        sites={membership?.sites ?? []}
        definition={definition.data?.definition}
        onApply={(fields: QueryFilterFields) => apply({ ...filters, ...fields })}
      />

      <PagedListTable<QueryListRow, QueryListSortKey, QueryListPageSize>
        id="query-list"
        label={t('list.caption')}
        fit
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.id)}
        query={list}
        loadFailed={t('list.loadFailed')}
        sorting={{
          mode: 'server',
          sort: filters.sort,
          order: filters.order,
          onSort: (column) => apply({ ...filters, ...nextSort(filters, column) }),
        }}
        emptyMessage={t('list.noData')}
        // The row opens its thread; its own controls (link, checkbox, button) keep their meaning.
        onRowClick={openThread}
        count={(total) => t('list.count', { count: total })}
        actions={
          canManage ? (
            <div className={styles.bulkBar}>
              <span className={styles.selectedCount}>{t('list.selected', { count: chosen.length })}</span>
              <Button
                variant="secondary"
                size="sm"
                disabled={chosen.length === 0}
                onClick={() => openBulk('close')}
              >
                {t('list.bulkClose')}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={chosen.length === 0}
                onClick={() => openBulk('cancel')}
              >
                {t('list.bulkCancel')}
              </Button>
            </div>
          ) : null
        }
        pageSize={filters.size}
        pageSizeChoice={{ sizes: QUERY_LIST_PAGE_SIZES, onChange: (size) => apply({ ...filters, size }) }}
        downloads={{
          run: (format) => downloadQueryList(studyId, filters, format),
          csvLabel: t('list.downloadCsv'),
          xlsxLabel: t('list.downloadXlsx'),
        }}
      />

      {thread ? (
        <QueryThreadPanel
          key={thread.id}
          studyId={studyId}
          context={[
            thread.subject.subjectId,
            thread.visitLabel[language],
            thread.formLabel[language],
            thread.itemLabel[language],
          ].join(' · ')}
          queries={[
            {
              id: thread.id,
              state: thread.state,
              text: thread.lastMessage.text[language],
              openedAt: thread.openedAt,
            },
          ]}
          initialQueryId={thread.id}
        />
      ) : null}
      {canManage ? (
        <BulkQueryDialog
          studyId={studyId}
          action={bulkAction}
          queryIds={chosen}
          onDone={() => setSelected(new Set())}
        />
      ) : null}
    </ListPage>
  );
}
