import {
  type HoldAbilities,
  type HoldKindValue,
  READINESS_PAGE_SIZES,
  type ReadinessSiteRow,
  type ReadinessSortKey,
  type ReadinessSubjectRow,
} from '@cdms/contract';
import { type ReactNode, useId, useState } from 'react';
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
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { HoldMarkBadge } from '../../../components/record-marks.tsx';
import { useReadinessSites, useReadinessSubjects } from '../api/readiness.ts';
import {
  type ReadinessFilters,
  type ReadinessPageSize,
  readReadinessFilters,
  writeReadinessFilters,
} from '../lib/readiness-filters.ts';
import styles from './freezing.module.css';
import { BOARD_HOLD_MODAL, HoldDialog, type HoldDialogRequest } from './hold-dialog.tsx';
import { ReadinessFilterPanel } from './readiness-filter-panel.tsx';

// Query parameters of the subject pages (the subjects feature's subject-urls.ts; features do not
// import each other, the URL is the contract between them).
const MENU_TYPE_PARAM = 'menu-type';

function overviewUrl(studyId: number, row: ReadinessSubjectRow, menuType: string | null): string {
  return studyPath(paths.subjectOverview, studyId, {
    [MENU_TYPE_PARAM]: menuType ?? undefined,
    'subject-id': row.subjectId,
    'registration-number': row.registrationNumber ?? undefined,
    'subject-pk': String(row.subjectPk),
  });
}

/** The counts that stand between a subject and a lock, in the board's column order. */
const COUNT_COLUMNS = [
  'openQueries',
  'answeredQueries',
  'formsMissingRequired',
  'formsSdvIncomplete',
  'overdueVisits',
] as const;

const SUBJECT_COLUMNS: readonly { key: string; sort?: ReadinessSortKey; numeric?: boolean }[] = [
  { key: 'subjectId', sort: 'subjectId' },
  { key: 'site', sort: 'site' },
  // Ready and the hold first: on a narrow screen they stay in view while the counts scroll.
  { key: 'ready', sort: 'ready' },
  { key: 'hold' },
  ...COUNT_COLUMNS.map((key) => ({ key, sort: key, numeric: true })),
  { key: 'signature', sort: 'signature' },
];

/**
 * `/freezing/:studyId` (issue 15; CRA menu): the database-lock readiness board. Per site and per
 * subject what still stands between the data and a lock — open and answered queries, forms missing
 * required items, SDV below plan, casebooks not signed or signatures invalidated, overdue visits —
 * and "ready" when nothing does. Monitors and data managers freeze and unfreeze, data managers lock
 * and unlock: selected subjects, a site or the study, through one dialog with a reason.
 */
export function FreezingPage() {
  const raw = useParams().studyId;
  const studyId = raw && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <Freezing studyId={studyId} />;
}

function Freezing({ studyId }: { studyId: number }) {
  const { t } = useTranslation('holds');
  const [searchParams, setSearchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const filters = readReadinessFilters(searchParams);
  const headingId = useId();
  const modals = useModalStack();
  const sites = useReadinessSites(studyId);
  const list = useReadinessSubjects(studyId, filters);
  const [selected, setSelected] = useState<ReadonlyMap<number, string>>(new Map());
  const [dialog, setDialog] = useState<{ request: HoldDialogRequest; opening: number } | null>(null);

  function apply(change: Partial<ReadinessFilters>) {
    setSelected(new Map());
    setSearchParams((current) => writeReadinessFilters(current, { ...filters, ...change }));
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
  const columnCount = SUBJECT_COLUMNS.length + (canAct ? 1 : 0);
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

  return (
    <section className={listStyles.page} aria-labelledby={headingId}>
      <div className={listStyles.pageHeader}>
        <h1 id={headingId} className={listStyles.pageTitle}>
          {t('board.title')}
        </h1>
        {sites.data ? (
          <p className={styles.readySummary}>
            {t('board.readySummary', {
              ready: sites.data.study.readySubjects,
              total: sites.data.study.subjects,
            })}
          </p>
        ) : null}
      </div>
      <p className={styles.intro}>{t('board.intro')}</p>

      <ListTable
        label={t('board.sites.caption')}
        busy={sites.isFetching}
        head={
          <>
            <th scope="col">{t('board.columns.site')}</th>
            <th scope="col" className={listStyles.numeric}>
              {t('board.columns.readySubjects')}
            </th>
            <th scope="col">{t('board.columns.hold')}</th>
            {COUNT_COLUMNS.map((key) => (
              <th key={key} scope="col" className={listStyles.numeric}>
                {t(`board.columns.${key}`)}
              </th>
            ))}
            <th scope="col" className={listStyles.numeric}>
              {t('board.columns.unsignedCasebooks')}
            </th>
            {canAct ? <th scope="col">{t('board.columns.actions')}</th> : null}
          </>
        }
      >
        {sites.isError ? (
          <ListTableMessage columns={10 + (canAct ? 1 : 0)}>{sites.error.message}</ListTableMessage>
        ) : !sites.data ? (
          <ListTableMessage columns={10 + (canAct ? 1 : 0)} loading>
            {t('board.loading')}
          </ListTableMessage>
        ) : (
          <>
            {sites.data.sites.map((site) => (
              <SiteRow
                key={site.siteId}
                row={site}
                label={
                  <button
                    type="button"
                    className={styles.linkButton}
                    aria-pressed={filters.siteId === site.siteId}
                    onClick={() => apply({ siteId: filters.siteId === site.siteId ? null : site.siteId })}
                  >
                    {site.site} {site.siteName}
                  </button>
                }
                actions={
                  canAct
                    ? changeButton('site', site.siteId, site.hold, `${site.site} ${site.siteName}`)
                    : null
                }
              />
            ))}
            <SiteRow
              row={sites.data.study}
              label={t('board.sites.study')}
              total
              actions={
                canAct ? changeButton('study', null, sites.data.study.hold, t('board.sites.study')) : null
              }
            />
          </>
        )}
      </ListTable>

      <ReadinessFilterPanel
        key={[filters.siteId, filters.subject, filters.state, filters.hold].join('|')}
        applied={filters}
        sites={siteChoices}
        onApply={(fields) => apply(fields)}
      />

      <div className={listStyles.toolbar}>
        <p className={listStyles.total} aria-live="polite">
          {data ? t('board.count', { count: data.total }) : ''}
        </p>
        <div className={listStyles.toolbarActions}>
          {canAct ? (
            <fieldset className={styles.bulkBar} aria-label={t('board.selectedGroup')}>
              <span className={styles.selectedCount}>{t('board.selected', { count: chosen.length })}</span>
              {actionButtons('selected', filters.siteId, chosen.length === 0)}
            </fieldset>
          ) : null}
          <PageSizeSelect<ReadinessPageSize>
            sizes={READINESS_PAGE_SIZES}
            value={filters.size}
            onChange={(size) => apply({ size })}
          />
        </div>
      </div>

      {list.isError && !data ? (
        <ListLoadError
          title={t('board.loadFailed')}
          detail={list.error.message}
          retryLabel={t('board.retry')}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <ListTable
          label={t('board.subjects.caption')}
          busy={list.isFetching}
          head={
            <>
              {canAct ? (
                <th scope="col" className={styles.selectCell}>
                  <input
                    type="checkbox"
                    aria-label={t('board.selectAll')}
                    checked={pageRows.length > 0 && chosen.length === pageRows.length}
                    disabled={pageRows.length === 0}
                    onChange={(event) =>
                      setSelected(
                        event.target.checked
                          ? new Map(pageRows.map((row) => [row.subjectPk, row.subjectId]))
                          : new Map(),
                      )
                    }
                  />
                </th>
              ) : null}
              {SUBJECT_COLUMNS.map(({ key, sort, numeric }) =>
                sort ? (
                  <SortableHeader
                    key={key}
                    column={sort}
                    label={t(`board.columns.${key}`)}
                    numeric={numeric ?? false}
                    sort={filters.sort}
                    order={filters.order}
                    onSort={(column) => apply(nextSort(filters, column))}
                  />
                ) : (
                  <th key={key} scope="col">
                    {t(`board.columns.${key}`)}
                  </th>
                ),
              )}
            </>
          }
        >
          {!rows ? (
            <ListTableMessage columns={columnCount} loading>
              {t('board.loading')}
            </ListTableMessage>
          ) : rows.length === 0 ? (
            <ListTableMessage columns={columnCount}>{t('board.noData')}</ListTableMessage>
          ) : (
            rows.map((row) => (
              <tr key={row.subjectPk} data-subject={row.subjectId} data-ready={row.ready}>
                {canAct ? (
                  <td className={styles.selectCell}>
                    <input
                      type="checkbox"
                      aria-label={t('board.selectRow', { subject: row.subjectId })}
                      checked={selected.has(row.subjectPk)}
                      onChange={(event) => toggle(row, event.target.checked)}
                    />
                  </td>
                ) : null}
                <td>
                  <Link to={overviewUrl(studyId, row, menuType)} className={listStyles.rowLink}>
                    {row.subjectId}
                  </Link>
                </td>
                <td>{row.site}</td>
                <td>
                  <span className={styles.ready} data-ready={row.ready}>
                    {row.ready ? t('board.ready') : t('board.notReady')}
                  </span>
                </td>
                <td>
                  {row.hold ? <HoldMarkBadge mark={row.hold} /> : <span className={styles.zero}>—</span>}
                </td>
                {COUNT_COLUMNS.map((key) => (
                  <CountCell key={key} name={key} value={row[key]} />
                ))}
                <td>
                  <span className={styles.signature} data-signature={row.signature}>
                    {t(`board.signature.${row.signature}`)}
                  </span>
                </td>
              </tr>
            ))
          )}
        </ListTable>
      )}

      {data && !list.isPlaceholderData && <Pagination total={data.total} pageSize={filters.size} />}

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
    </section>
  );
}

/** A count that stands in the way: zero muted, anything else stands out. */
function CountCell({ name, value }: { name: string; value: number }) {
  return (
    <td className={listStyles.numeric} data-count={name}>
      <span className={value === 0 ? styles.zero : styles.blocking}>{value}</span>
    </td>
  );
}

function SiteRow({
  row,
  label,
  total = false,
  actions,
}: {
  row: Omit<ReadinessSiteRow, 'siteId' | 'site' | 'siteName'>;
  label: ReactNode;
  total?: boolean;
  actions: ReactNode;
}) {
  const { t } = useTranslation('holds');
  return (
    <tr className={total ? styles.totalRow : undefined}>
      <th scope="row" className={styles.rowHead}>
        {label}
      </th>
      <td className={listStyles.numeric}>
        {t('board.readyOf', { ready: row.readySubjects, total: row.subjects })}
      </td>
      <td>
        <div className={styles.holdCell}>
          <HoldMarkBadge mark={row.hold} />
          {row.frozenSubjects + row.lockedSubjects > 0 ? (
            <span className={styles.zero}>
              {t('board.heldSubjects', { frozen: row.frozenSubjects, locked: row.lockedSubjects })}
            </span>
          ) : row.hold ? null : (
            <span className={styles.zero}>—</span>
          )}
        </div>
      </td>
      {COUNT_COLUMNS.map((key) => (
        <CountCell key={key} name={key} value={row[key]} />
      ))}
      <td className={listStyles.numeric}>
        <span className={row.unsignedCasebooks === 0 ? styles.zero : styles.blocking}>
          {row.unsignedCasebooks}
        </span>
        {row.invalidatedSignatures > 0 ? (
          <span className={styles.invalidated}>
            {' '}
            {t('board.invalidated', { count: row.invalidatedSignatures })}
          </span>
        ) : null}
      </td>
      {actions ? (
        <td>
          <div className={styles.rowActions}>{actions}</div>
        </td>
      ) : null}
    </tr>
  );
}
