import type { NoticeSummary } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useAlert } from '../../../components/alert-dialog.tsx';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { FilterPanel, FilterPeriod, FilterText } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useNotices } from '../api/get-notices.ts';
import {
  NOTICE_PAGE_SIZES,
  type NoticeFilters,
  type NoticePageSize,
  noticeListParams,
} from '../lib/notice-filters.ts';
import { MENU_TYPE_PARAM, noticeDetailUrl, noticeRegisterUrl } from '../lib/notice-urls.ts';
import { NoticeBadges } from './notice-badges.tsx';
import { NoticeTabs } from './notice-tabs.tsx';
import styles from './notices.module.css';

/** Where the detail page's "back to list" returns: this list with its filters and page. */
export interface NoticeListState {
  listSearch: string;
}

/** `/notice/:studyId`: the study's notices, filtered and paged through the URL (prototype-spec §2). */
export function NoticeListPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <NoticeList studyId={studyId} />;
}

function NoticeList({ studyId }: { studyId: number }) {
  const { t } = useTranslation('notices');
  const { values: filters, apply, searchParams } = useListState(noticeListParams);
  const location = useLocation();
  const navigate = useNavigate();
  const notices = useNotices(studyId, filters);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const headingId = useId();

  function openNotice(noticeId: number) {
    const state: NoticeListState = { listSearch: location.search };
    navigate(noticeDetailUrl(studyId, noticeId, menuType), { state });
  }

  const columns: DataTableColumn<NoticeSummary>[] = [
    {
      id: 'no',
      header: t('list.columns.no'),
      className: styles.colNo,
      headerClassName: styles.colNo,
      cell: (notice) => notice.no,
    },
    {
      id: 'title',
      header: t('list.columns.title'),
      hideable: false,
      wrap: true,
      cell: (notice) => (
        <span className={styles.titleCell}>
          <NoticeBadges notice={notice} />
          <Link
            className={styles.titleLink}
            to={noticeDetailUrl(studyId, notice.id, menuType)}
            state={{ listSearch: location.search } satisfies NoticeListState}
          >
            {notice.title}
          </Link>
        </span>
      ),
    },
    {
      id: 'writer',
      header: t('list.columns.writer'),
      className: styles.colWriter,
      headerClassName: styles.colWriter,
      cell: (notice) => notice.writer,
    },
    {
      id: 'createdAt',
      header: t('list.columns.createdAt'),
      className: styles.colDate,
      headerClassName: styles.colDate,
      cell: (notice) => formatDateTimeKst(notice.createdAt),
    },
  ];

  const data = notices.data;
  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <div className={styles.pageHeader}>
        <h1 id={headingId} className={styles.pageTitle}>
          {t('title')}
        </h1>
        {data?.canWrite && (
          <Link className={styles.linkButton} to={noticeRegisterUrl(studyId, menuType)}>
            {t('list.register')}
          </Link>
        )}
      </div>

      <NoticeTabs studyId={studyId} />

      <NoticeFilterPanel
        key={filterPanelKey(filters, EMPTY_NOTICE_FILTER_FIELDS)}
        filters={filters}
        onApply={apply}
      />

      <PagedListTable<NoticeSummary, string, NoticePageSize>
        id="notice-list"
        label={t('list.caption')}
        columns={columns}
        rows={data?.notices}
        rowKey={(notice) => String(notice.id)}
        query={notices}
        loadFailed={t('list.loadFailed')}
        fit
        emptyMessage={t('list.noData')}
        // The whole row opens the notice for a mouse; the title link is the keyboard's way.
        onRowClick={(notice) => openNotice(notice.id)}
        rowClassName={(notice) =>
          [notice.pinned ? styles.pinnedRow : '', notice.visible ? '' : styles.hiddenRow]
            .filter(Boolean)
            .join(' ')
        }
        count={(total) => t('list.total', { total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: NOTICE_PAGE_SIZES, onChange: (size) => apply({ ...filters, size }) }}
      />
    </section>
  );
}

/** The panel's fields, cleared. */
const EMPTY_NOTICE_FILTER_FIELDS: Pick<NoticeFilters, 'start' | 'end' | 'search'> = {
  start: '',
  end: '',
  search: '',
};

interface NoticeFilterPanelProps {
  filters: NoticeFilters;
  onApply: (filters: Pick<NoticeFilters, 'start' | 'end' | 'search' | 'size'>) => void;
}

/** The shared filter panel with a period (two dates or a preset) and a keyword, applied together. */
function NoticeFilterPanel({ filters, onApply }: NoticeFilterPanelProps) {
  const { t } = useTranslation('notices');
  const alert = useAlert();
  const [start, setStart] = useState(filters.start);
  const [end, setEnd] = useState(filters.end);
  const [search, setSearch] = useState(filters.search);

  function submit() {
    // The server refuses this too (400); saying it here names the problem.
    if (start && end && start > end) {
      void alert.alert({ message: t('list.startAfterEnd') });
      return;
    }
    onApply({ start, end, search, size: filters.size });
  }

  return (
    <FilterPanel
      onSubmit={submit}
      onReset={() => {
        setStart('');
        setEnd('');
        setSearch('');
        onApply({ ...EMPTY_NOTICE_FILTER_FIELDS, size: filters.size });
      }}
    >
      <FilterPeriod
        label={t('list.range')}
        startLabel={t('list.start')}
        endLabel={t('list.end')}
        start={start}
        end={end}
        onStartChange={setStart}
        onEndChange={setEnd}
        presets={{
          presetLabel: (preset) => t(`list.presets.${preset}`),
          onPick: (dates) => {
            setStart(dates.start);
            setEnd(dates.end);
          },
        }}
      />
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
