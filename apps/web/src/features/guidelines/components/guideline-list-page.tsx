import {
  type GuidelineState,
  type GuidelineSummary,
  type GuidelineType,
  guidelineStates,
  guidelineTypes,
} from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { FilterChoice, FilterPanel, FilterText, ListPage } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useGuidelines } from '../api/guidelines.ts';
import {
  GUIDELINE_PAGE_SIZES,
  type GuidelineFilters,
  type GuidelinePageSize,
  guidelineListParams,
} from '../lib/guideline-filters.ts';
import { guidelineDetailUrl, guidelineRegisterUrl, MENU_TYPE_PARAM } from '../lib/guideline-urls.ts';
import styles from './guidelines.module.css';

/** `/guideline/:studyId`: the study's guidelines (prototype-spec §2 "Guideline list"), filters in the URL. */
export function GuidelineListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <GuidelineList studyId={studyId} />;
}

export function GuidelineStateBadge({ state }: { state: GuidelineState }) {
  const { t } = useTranslation('guidelines');
  return <span className={`${styles.badge} ${styles[`state_${state}`]}`}>{t(`states.${state}`)}</span>;
}

function GuidelineList({ studyId }: { studyId: number }) {
  const { t } = useTranslation('guidelines');
  const { values: filters, apply, searchParams } = useListState(guidelineListParams);
  const navigate = useNavigate();
  const guidelines = useGuidelines(studyId, filters);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const data = guidelines.data;

  const columns: DataTableColumn<GuidelineSummary>[] = [
    {
      id: 'no',
      header: t('columns.no'),
      className: styles.colNo,
      headerClassName: styles.colNo,
      cell: (g) => g.no,
    },
    {
      id: 'guideType',
      header: t('columns.guideType'),
      className: styles.colType,
      headerClassName: styles.colType,
      cell: (g) => t(`types.${g.guideType}`),
    },
    {
      id: 'title',
      header: t('columns.title'),
      hideable: false,
      wrap: true,
      cell: (g) => (
        <span className={styles.titleCell}>
          <Link className={styles.titleLink} to={guidelineDetailUrl(studyId, g.id, menuType)}>
            {g.title}
          </Link>
          <span className={styles.version}>v{g.version}</span>
          {g.attachmentCount > 0 && (
            <span className={styles.clip} title={t('attachmentCount', { count: g.attachmentCount })}>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                width="14"
                height="14"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M21 11.5l-8.5 8.5a5 5 0 0 1-7-7L14 4.5a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 7.5" />
              </svg>
              <span className={styles.visuallyHidden}>
                {t('attachmentCount', { count: g.attachmentCount })}
              </span>
              <span aria-hidden="true">{g.attachmentCount}</span>
            </span>
          )}
          {g.alarming && <span className={`${styles.badge} ${styles.alarm}`}>{t('alarming')}</span>}
        </span>
      ),
    },
    { id: 'writer', header: t('columns.writer'), className: styles.colWriter, cell: (g) => g.writer },
    {
      id: 'createdAt',
      header: t('columns.enrollmentDate'),
      className: styles.colDate,
      cell: (g) => formatDateTimeKst(g.createdAt),
    },
    {
      id: 'alarmPeriod',
      header: t('columns.alarmPeriod'),
      className: styles.colPeriod,
      cell: (g) => (g.alarmStart && g.alarmEnd ? `${g.alarmStart} ~ ${g.alarmEnd}` : '—'),
    },
    {
      id: 'state',
      header: t('columns.state'),
      className: styles.colState,
      cell: (g) => <GuidelineStateBadge state={g.state} />,
    },
  ];

  return (
    <ListPage
      title={t('title')}
      headerActions={
        data?.canWrite && (
          <Link className={styles.linkButton} to={guidelineRegisterUrl(studyId, menuType)}>
            {t('list.register')}
          </Link>
        )
      }
    >
      {data && data.reminders.length > 0 && (
        <div className={styles.reminder} role="status" data-testid="guideline-reminder">
          <strong>{t('list.reminderTitle')}</strong>
          <ul>
            {data.reminders.map((reminder) => (
              <li key={reminder.id}>
                <Link to={guidelineDetailUrl(studyId, reminder.id, menuType)}>
                  {reminder.title} (v{reminder.version})
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}

      <GuidelineFilterPanel
        key={filterPanelKey(filters, EMPTY_GUIDELINE_FILTER_FIELDS)}
        filters={filters}
        canWrite={data?.canWrite ?? false}
        onApply={apply}
      />

      <PagedListTable<GuidelineSummary, string, GuidelinePageSize>
        id="guideline-list"
        label={t('list.caption')}
        columns={columns}
        rows={data?.guidelines}
        rowKey={(g) => String(g.id)}
        query={guidelines}
        loadFailed={t('list.loadFailed')}
        fit
        emptyMessage={t('list.noData')}
        onRowClick={(g) => navigate(guidelineDetailUrl(studyId, g.id, menuType))}
        rowAttributes={(g) => ({ 'data-guideline-id': String(g.id), 'data-state': g.state })}
        count={(total) => t('list.total', { total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: GUIDELINE_PAGE_SIZES, onChange: (size) => apply({ ...filters, size }) }}
      />
    </ListPage>
  );
}

/** The panel's fields, cleared. */
const EMPTY_GUIDELINE_FILTER_FIELDS: Pick<GuidelineFilters, 'type' | 'state' | 'search'> = {
  type: '',
  state: '',
  search: '',
};

function GuidelineFilterPanel({
  filters,
  canWrite,
  onApply,
}: {
  filters: GuidelineFilters;
  canWrite: boolean;
  onApply: (filters: Omit<GuidelineFilters, 'page'>) => void;
}) {
  const { t } = useTranslation('guidelines');
  const [type, setType] = useState<GuidelineType | ''>(filters.type);
  const [state, setState] = useState<GuidelineState | ''>(filters.state);
  const [search, setSearch] = useState(filters.search);
  return (
    <FilterPanel
      onSubmit={() => onApply({ type, state, search, size: filters.size })}
      onReset={() => {
        setType('');
        setState('');
        setSearch('');
        onApply({ ...EMPTY_GUIDELINE_FILTER_FIELDS, size: filters.size });
      }}
    >
      <FilterChoice<GuidelineType | ''>
        label={t('columns.guideType')}
        choices={['', ...guidelineTypes]}
        value={type}
        optionLabel={(choice) => (choice ? t(`types.${choice}`) : t('list.all'))}
        onChange={setType}
      />
      {/* Readers see published guidelines only: the state choice is the writers'. */}
      {canWrite && (
        <FilterChoice<GuidelineState | ''>
          label={t('columns.state')}
          choices={['', ...guidelineStates]}
          value={state}
          optionLabel={(choice) => (choice ? t(`states.${choice}`) : t('list.all'))}
          onChange={setState}
        />
      )}
      <FilterText
        label={t('list.search')}
        type="search"
        placeholder={t('list.searchPlaceholder')}
        value={search}
        onChange={setSearch}
      />
    </FilterPanel>
  );
}
