import {
  type HoldAbilities,
  type HoldKindValue,
  READINESS_PAGE_SIZES,
  type ReadinessSiteRow,
  type ReadinessSitesResponse,
  type ReadinessSortKey,
  type ReadinessSubjectRow,
} from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { selectColumn } from '../../../components/data-table/select-column.tsx';
import { ListPage, listStyles, nextSort } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { HoldMarkBadge } from '../../../components/record-marks.tsx';
import { siteFilterColumn } from '../../../components/site-subject-filters.tsx';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { paths } from '../../../lib/paths.ts';
import { MENU_TYPE_PARAM, overviewUrl, readId } from '../../../lib/subject-urls.ts';
import { useReadinessSites, useReadinessSubjects } from '../api/readiness.ts';
import {
  type ReadinessFilters,
  type ReadinessPageSize,
  readinessListParams,
} from '../lib/readiness-filters.ts';
import styles from './freezing.module.css';
import { BOARD_HOLD_MODAL, HoldDialog, type HoldDialogRequest } from './hold-dialog.tsx';
import { EMPTY_READINESS_FILTER_FIELDS, ReadinessFilterPanel } from './readiness-filter-panel.tsx';

function subjectUrl(studyId: number, row: ReadinessSubjectRow, menuType: string | null): string {
  return overviewUrl(studyId, { ...row, id: row.subjectPk }, menuType);
}

/** The counts that stand between a subject and a lock, in the board's column order. */
const COUNT_COLUMNS = [
  'openQueries',
  'answeredQueries',
  'formsMissingRequired',
  'formsSdvIncomplete',
  'overdueVisits',
] as const;

/** A line of the sites table: a site, or the study's total beneath them (no site). */
type SiteLine = ReadinessSitesResponse['study'] &
  Partial<Pick<ReadinessSiteRow, 'siteId' | 'site' | 'siteName'>>;

/**
 * `/freezing/:studyId` (issue 15; CRA menu): the database-lock readiness board. Per site and per
 * subject what still stands between the data and a lock — open and answered queries, forms missing
 * required items, SDV below plan, casebooks not signed or signatures invalidated, overdue visits —
 * and "ready" when nothing does. Monitors and data managers freeze and unfreeze, data managers lock
 * and unlock: selected subjects, a site or the study, through one dialog with a reason.
 */
export function FreezingPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Freezing studyId={studyId} />;
}

function Freezing({ studyId }: { studyId: number }) {
  const { t } = useTranslation('holds');
  const { values: filters, apply: applyList, searchParams } = useListState(readinessListParams);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const modals = useModalStack();
  const sites = useReadinessSites(studyId);
  const list = useReadinessSubjects(studyId, filters);
  const [selected, setSelected] = useState<ReadonlyMap<number, string>>(new Map());
  const [dialog, setDialog] = useState<{ request: HoldDialogRequest; opening: number } | null>(null);

  function apply(change: Partial<ReadinessFilters>) {
    setSelected(new Map());
    applyList(change);
  }

  function openDialog(request: HoldDialogRequest) {
    setDialog((current) => ({ request, opening: (current?.opening ?? 0) + 1 }));
    modals.open(BOARD_HOLD_MODAL);
  }

  const abilities: HoldAbilities = sites.data?.abilities ??
    list.data?.abilities ?? { freeze: false, lock: false };
  const canAct = abilities.freeze || abilities.lock;
  const data = list.data;
  const rows = data?.subjects;
  const pageRows = rows ?? [];
  const chosen = pageRows.filter((row) => selected.has(row.subjectPk));
  const siteChoices = (sites.data?.sites ?? []).map((site) => ({
    siteId: site.siteId,
    label: `${site.site} ${site.siteName}`,
  }));
  const toggle = (row: ReadinessSubjectRow, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(row.subjectPk, row.subjectId);
      else next.delete(row.subjectPk);
      return next;
    });

  /**
   * A site's or the study's one button: the dialog for that scope, on the change its mark suggests
   * (lifting what holds it, else a freeze, or a lock for a data manager alone).
   */
  const changeButton = (
    scope: 'site' | 'study',
    siteId: number | null,
    mark: ReadinessSiteRow['hold'],
    name: string,
  ) => (
    <Button
      variant="secondary"
      size="sm"
      aria-label={t('board.changeFor', { name })}
      onClick={() =>
        openDialog({
          action: mark ? 'lift' : 'place',
          kind: mark?.kind ?? (abilities.freeze ? 'frozen' : 'locked'),
          scope,
          siteId,
        })
      }
    >
      {t('board.change')}
    </Button>
  );

  /** The changes the reader holds, as buttons opening the dialog for the selected subjects. */
  const actionButtons = (scope: HoldDialogRequest['scope'], siteId: number | null, disabled = false) => {
    const kinds: HoldKindValue[] = [
      ...(abilities.freeze ? (['frozen'] as const) : []),
      ...(abilities.lock ? (['locked'] as const) : []),
    ];
    return kinds.flatMap((kind) =>
      (['place', 'lift'] as const).map((action) => (
        <Button
          key={`${action}-${kind}`}
          variant="secondary"
          size="sm"
          disabled={disabled}
          onClick={() => openDialog({ action, kind, scope, siteId })}
        >
          {t(`actions.${action}.${kind}`)}
        </Button>
      )),
    );
  };

  /** A count that stands in the way: zero muted, anything else stands out. */
  const countColumn = <Line extends Record<(typeof COUNT_COLUMNS)[number], number>>(
    key: (typeof COUNT_COLUMNS)[number],
    sortable: boolean,
  ): DataTableColumn<Line, ReadinessSortKey> => ({
    id: key,
    header: t(`board.columns.${key}`),
    numeric: true,
    hideable: sortable,
    sortKey: sortable ? key : undefined,
    cell: (line) => (
      <span className={line[key] === 0 ? styles.zero : styles.blocking} data-count={key}>
        {line[key]}
      </span>
    ),
  });

  const siteColumns: DataTableColumn<SiteLine>[] = [
    siteFilterColumn<SiteLine>({
      header: t('board.columns.site'),
      studyLabel: t('board.sites.study'),
      selected: filters.siteId,
      onSelect: (siteId) => apply({ siteId }),
      buttonClassName: styles.linkButton,
    }),
    {
      id: 'readySubjects',
      header: t('board.columns.readySubjects'),
      numeric: true,
      hideable: false,
      cell: (line) => t('board.readyOf', { ready: line.readySubjects, total: line.subjects }),
    },
    {
      id: 'hold',
      header: t('board.columns.hold'),
      hideable: false,
      cell: (line) => (
        <div className={styles.holdCell}>
          <HoldMarkBadge mark={line.hold} />
          {line.frozenSubjects + line.lockedSubjects > 0 ? (
            <span className={styles.zero}>
              {t('board.heldSubjects', { frozen: line.frozenSubjects, locked: line.lockedSubjects })}
            </span>
          ) : line.hold ? null : (
            <span className={styles.zero}>—</span>
          )}
        </div>
      ),
    },
    ...COUNT_COLUMNS.map((key) => countColumn<SiteLine>(key, false)),
    {
      id: 'unsignedCasebooks',
      header: t('board.columns.unsignedCasebooks'),
      numeric: true,
      hideable: false,
      cell: (line) => (
        <>
          <span className={line.unsignedCasebooks === 0 ? styles.zero : styles.blocking}>
            {line.unsignedCasebooks}
          </span>
          {line.invalidatedSignatures > 0 ? (
            <span className={styles.invalidated}>
              {' '}
              {t('board.invalidated', { count: line.invalidatedSignatures })}
            </span>
          ) : null}
        </>
      ),
    },
    ...(canAct
      ? [
          {
            id: 'actions',
            header: t('board.columns.actions'),
            hideable: false,
            cell: (line: SiteLine) => (
              <div className={styles.rowActions}>
                {line.siteId === undefined
                  ? changeButton('study', null, line.hold, t('board.sites.study'))
                  : changeButton('site', line.siteId, line.hold, `${line.site} ${line.siteName}`)}
              </div>
            ),
          },
        ]
      : []),
  ];

  const subjectColumns: DataTableColumn<ReadinessSubjectRow, ReadinessSortKey>[] = [
    ...(canAct
      ? [
          selectColumn<ReadinessSubjectRow, ReadinessSortKey>({
            pageRows,
            isSelected: (row) => selected.has(row.subjectPk),
            onSelect: toggle,
            onSelectAll: (on) =>
              setSelected(on ? new Map(pageRows.map((row) => [row.subjectPk, row.subjectId])) : new Map()),
            selectAllLabel: t('board.selectAll'),
            selectRowLabel: (row) => t('board.selectRow', { subject: row.subjectId }),
            className: styles.selectCell,
          }),
        ]
      : []),
    {
      id: 'subjectId',
      header: t('board.columns.subjectId'),
      sortKey: 'subjectId',
      hideable: false,
      cell: (row) => (
        <Link to={subjectUrl(studyId, row, menuType)} className={listStyles.rowLink}>
          {row.subjectId}
        </Link>
      ),
    },
    { id: 'site', header: t('board.columns.site'), sortKey: 'site', cell: (row) => row.site },
    // Ready and the hold first: on a narrow screen they stay in view while the counts scroll.
    {
      id: 'ready',
      header: t('board.columns.ready'),
      sortKey: 'ready',
      cell: (row) => (
        <span className={styles.ready} data-ready={row.ready}>
          {row.ready ? t('board.ready') : t('board.notReady')}
        </span>
      ),
    },
    {
      id: 'hold',
      header: t('board.columns.hold'),
      cell: (row) => (row.hold ? <HoldMarkBadge mark={row.hold} /> : <span className={styles.zero}>—</span>),
    },
    ...COUNT_COLUMNS.map((key) => countColumn<ReadinessSubjectRow>(key, true)),
    {
      id: 'signature',
      header: t('board.columns.signature'),
      sortKey: 'signature',
      cell: (row) => (
        <span className={styles.signature} data-signature={row.signature}>
          {t(`board.signature.${row.signature}`)}
        </span>
      ),
    },
  ];

  return (
    <ListPage
      title={t('board.title')}
      headerActions={
        sites.data ? (
          <p className={styles.readySummary}>
            {t('board.readySummary', {
              ready: sites.data.study.readySubjects,
              total: sites.data.study.subjects,
            })}
          </p>
        ) : null
      }
    >
      <p className={styles.intro}>{t('board.intro')}</p>

      <DataTable<SiteLine>
        id="readiness-sites"
        label={t('board.sites.caption')}
        columns={siteColumns}
        rows={sites.data?.sites}
        rowKey={(line) => String(line.siteId ?? 'study')}
        footerRows={sites.data ? [sites.data.study] : undefined}
        {...tableLoadState(sites, t('board.loadFailed'))}
      />

      <ReadinessFilterPanel
        key={filterPanelKey(filters, EMPTY_READINESS_FILTER_FIELDS)}
        applied={filters}
        sites={siteChoices}
        onApply={(fields) => apply(fields)}
      />

      <PagedListTable<ReadinessSubjectRow, ReadinessSortKey, ReadinessPageSize>
        id="readiness-subjects"
        label={t('board.subjects.caption')}
        columns={subjectColumns}
        rows={rows}
        rowKey={(row) => String(row.subjectPk)}
        rowAttributes={(row) => ({ 'data-subject': row.subjectId, 'data-ready': String(row.ready) })}
        sorting={{
          mode: 'server',
          sort: filters.sort,
          order: filters.order,
          onSort: (column) => apply(nextSort(filters, column)),
        }}
        query={list}
        loadFailed={t('board.loadFailed')}
        emptyMessage={t('board.noData')}
        count={(total) => t('board.count', { count: total })}
        actions={
          canAct ? (
            <fieldset className={styles.bulkBar} aria-label={t('board.selectedGroup')}>
              <span className={styles.selectedCount}>{t('board.selected', { count: chosen.length })}</span>
              {actionButtons('selected', filters.siteId, chosen.length === 0)}
            </fieldset>
          ) : null
        }
        pageSize={filters.size}
        pageSizeChoice={{ sizes: READINESS_PAGE_SIZES, onChange: (size) => apply({ size }) }}
      />

      {dialog ? (
        <HoldDialog
          key={dialog.opening}
          studyId={studyId}
          request={dialog.request}
          abilities={abilities}
          selected={chosen.map((row) => ({ subjectPk: row.subjectPk, subjectId: row.subjectId }))}
          sites={siteChoices}
          onDone={() => setSelected(new Map())}
        />
      ) : null}
    </ListPage>
  );
}
