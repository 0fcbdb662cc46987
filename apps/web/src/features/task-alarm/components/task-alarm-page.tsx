import {
  VISIT_ALARM_PAGE_SIZES,
  type VisitAlarm,
  type VisitAlarmCounts,
  type VisitAlarmState,
  visitAlarmStates,
} from '@cdms/contract';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { usePageParam } from '../../../components/pagination.tsx';
import { SubjectStatusBadge } from '../../../components/status-badge.tsx';
import { useListState } from '../../../lib/list-state.ts';
import { paths } from '../../../lib/paths.ts';
import { MENU_TYPE_PARAM, overviewUrl, readId } from '../../../lib/subject-urls.ts';
import { useVisitAlarms } from '../api/get-visit-alarms.ts';
import { type AlarmPageSize, alarmListParams } from '../lib/alarm-filters.ts';
import styles from './task-alarm-page.module.css';

/**
 * `/task-alarm/:studyId` (product.md "task alarm"): visits overdue, due, due soon and done out of
 * window for the subjects of the user's sites, from the study's visit windows. Counts per state
 * are the filter; site, state, page and page size live in the URL.
 */
export function TaskAlarmPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <TaskAlarms studyId={studyId} />;
}

function TaskAlarms({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('taskAlarm');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  const headingId = useId();
  const { values: filters, apply, searchParams } = useListState(alarmListParams);
  const [page] = usePageParam();
  const alarms = useVisitAlarms(studyId, filters, page);
  const data = alarms.data;
  const menuType = searchParams.get(MENU_TYPE_PARAM);

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <div className={styles.pageHeader}>
        <div>
          <h1 id={headingId} className={styles.pageTitle}>
            {t('title')}
          </h1>
          {data ? (
            <p className={styles.muted}>{t('basis', { today: data.today, days: data.dueSoonDays })}</p>
          ) : null}
        </div>
      </div>

      <StateFilter
        counts={data?.counts}
        selected={filters.state}
        onSelect={(state) => apply({ ...filters, state })}
      />

      <DataTable<VisitAlarm>
        id="visit-alarms"
        label={t('caption')}
        columns={alarmColumns(t, language, studyId, menuType, data ? (data.page - 1) * data.size : 0)}
        rows={data?.alarms}
        rowKey={(alarm) => `${alarm.subject.id}-${alarm.visitKey}`}
        {...tableLoadState(alarms, t('loadError'))}
        fit
        emptyMessage={filters.state === null && filters.siteId === null ? t('emptyAll') : t('emptyFiltered')}
        summary={data ? t('total', { count: data.total }) : ''}
        actions={
          <>
            <label className={styles.field}>
              <span>{t('filters.site')}</span>
              <select
                className={styles.select}
                value={filters.siteId ?? ''}
                onChange={(event) =>
                  apply({ ...filters, siteId: event.target.value === '' ? null : Number(event.target.value) })
                }
              >
                <option value="">{t('filters.allSites')}</option>
                {(data?.sites ?? []).map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.field}>
              <span>{t('filters.pageSize')}</span>
              <select
                className={styles.select}
                value={filters.size}
                onChange={(event) => apply({ ...filters, size: Number(event.target.value) as AlarmPageSize })}
              >
                {VISIT_ALARM_PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {t('filters.pageSizeOption', { size })}
                  </option>
                ))}
              </select>
            </label>
          </>
        }
        pager={data ? { total: data.total, pageSize: data.size } : null}
      />
    </section>
  );
}

function StateFilter({
  counts,
  selected,
  onSelect,
}: {
  counts: VisitAlarmCounts | undefined;
  selected: VisitAlarmState | null;
  onSelect: (state: VisitAlarmState | null) => void;
}) {
  const { t } = useTranslation('taskAlarm');
  const all = counts ? visitAlarmStates.reduce((sum, state) => sum + counts[state], 0) : null;
  const options: { state: VisitAlarmState | null; count: number | null }[] = [
    { state: null, count: all },
    ...visitAlarmStates.map((state) => ({ state, count: counts ? counts[state] : null })),
  ];
  return (
    <fieldset className={styles.states}>
      <legend className={styles.visuallyHidden}>{t('filters.state')}</legend>
      {options.map(({ state, count }) => (
        <button
          key={state ?? 'all'}
          type="button"
          className={styles.stateCard}
          data-state={state ?? 'all'}
          aria-pressed={selected === state}
          onClick={() => onSelect(state)}
        >
          <span className={styles.stateCount}>{count ?? '–'}</span>
          <span className={styles.stateName}>{t(`states.${state ?? 'all'}`)}</span>
          <span className={styles.stateHint}>{t(`hints.${state ?? 'all'}`)}</span>
        </button>
      ))}
    </fieldset>
  );
}

/** The alarm table's columns; `offset` numbers the rows across pages. */
function alarmColumns(
  t: TFunction<'taskAlarm'>,
  language: 'ko' | 'en',
  studyId: number,
  menuType: string | null,
  offset: number,
): DataTableColumn<VisitAlarm>[] {
  // The subject's overview, with the parameters the subject list uses (spec §2 "Subject list").
  const overview = (alarm: VisitAlarm) => overviewUrl(studyId, alarm.subject, menuType);
  return [
    { id: 'number', header: t('columns.number'), cell: (_alarm, index) => offset + index + 1 },
    {
      id: 'subjectId',
      header: t('columns.subjectId'),
      hideable: false,
      cell: (alarm) => (
        <Link to={overview(alarm)} className={styles.subjectLink}>
          {alarm.subject.subjectId}
        </Link>
      ),
    },
    {
      id: 'registrationNumber',
      header: t('columns.registrationNumber'),
      cell: (alarm) => alarm.subject.registrationNumber ?? '–',
    },
    {
      id: 'site',
      header: t('columns.site'),
      cell: (alarm) => <span title={alarm.subject.siteName}>{alarm.subject.siteCode}</span>,
    },
    {
      id: 'status',
      header: t('columns.status'),
      cell: (alarm) => (
        <SubjectStatusBadge status={alarm.subject.status}>
          {t(`status.${alarm.subject.status}`)}
        </SubjectStatusBadge>
      ),
    },
    { id: 'visit', header: t('columns.visit'), cell: (alarm) => alarm.visitLabel[language] },
    {
      id: 'window',
      header: t('columns.window'),
      wrap: true,
      cell: (alarm) => (
        // Breaks only between the two dates when the table is short of room.
        <>
          <span className={styles.nowrap}>
            {alarm.earliestDate} {t('windowSeparator')}
          </span>{' '}
          <span className={styles.nowrap}>{alarm.latestDate}</span>
        </>
      ),
    },
    { id: 'expectedDate', header: t('columns.expectedDate'), cell: (alarm) => alarm.expectedDate },
    { id: 'actualDate', header: t('columns.actualDate'), cell: (alarm) => alarm.actualDate ?? '–' },
    {
      id: 'state',
      header: t('columns.state'),
      cell: (alarm) => (
        <span className={styles.stateBadge} data-state={alarm.state}>
          {t(`states.${alarm.state}`)}
        </span>
      ),
    },
    {
      id: 'days',
      header: t('columns.days'),
      wrap: true,
      className: styles.days,
      cell: (alarm) => daysText(alarm, t),
    },
  ];
}

function daysText(alarm: VisitAlarm, t: TFunction<'taskAlarm'>): string {
  switch (alarm.state) {
    case 'overdue':
      return t('days.overdue', { count: alarm.days });
    case 'due':
      return alarm.days === 0 ? t('days.closesToday') : t('days.due', { count: alarm.days });
    case 'dueSoon':
      return t('days.dueSoon', { count: alarm.days });
    case 'outOfWindow':
      return t(alarm.timing === 'early' ? 'days.early' : 'days.late', { count: alarm.days });
  }
}
