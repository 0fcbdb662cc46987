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
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { paths, studyPath } from '../../../app/paths.ts';
import { Button } from '../../../components/button.tsx';
import { Pagination, usePageParam } from '../../../components/pagination.tsx';
import { SubjectStatusBadge } from '../../../components/status-badge.tsx';
import { useVisitAlarms } from '../api/get-visit-alarms.ts';
import {
  type AlarmFilters,
  type AlarmPageSize,
  readAlarmFilters,
  writeAlarmFilters,
} from '../lib/alarm-filters.ts';
import styles from './task-alarm-page.module.css';

const MENU_TYPE_PARAM = 'menu-type';

function readStudyId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * `/task-alarm/:studyId` (product.md "task alarm"): visits overdue, due, due soon and done out of
 * window for the subjects of the user's sites, from the study's visit windows. Counts per state
 * are the filter; site, state, page and page size live in the URL.
 */
export function TaskAlarmPage() {
  const studyId = readStudyId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <TaskAlarms studyId={studyId} />;
}

function TaskAlarms({ studyId }: { studyId: number }) {
  const { t } = useTranslation('taskAlarm');
  const headingId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = readAlarmFilters(searchParams);
  const [page] = usePageParam();
  const alarms = useVisitAlarms(studyId, filters, page);
  const data = alarms.data;
  const menuType = searchParams.get(MENU_TYPE_PARAM);

  function apply(next: AlarmFilters) {
    setSearchParams((current) => writeAlarmFilters(current, next));
  }

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

      <div className={styles.toolbar}>
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
        <p className={styles.total} aria-live="polite">
          {data ? t('total', { count: data.total }) : ''}
        </p>
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
      </div>

      {alarms.isError && !data ? (
        <div className={`${styles.card} ${styles.state}`} role="alert">
          <p>{t('loadError')}</p>
          {alarms.error.message ? <p>{alarms.error.message}</p> : null}
          <Button variant="secondary" onClick={() => void alarms.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : (
        <div className={`${styles.card} ${styles.tableWrap}`}>
          <table className={styles.table} aria-busy={alarms.isFetching}>
            <caption className={styles.visuallyHidden}>{t('caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.number')}</th>
                <th scope="col">{t('columns.subjectId')}</th>
                <th scope="col">{t('columns.registrationNumber')}</th>
                <th scope="col">{t('columns.site')}</th>
                <th scope="col">{t('columns.status')}</th>
                <th scope="col">{t('columns.visit')}</th>
                <th scope="col">{t('columns.window')}</th>
                <th scope="col">{t('columns.expectedDate')}</th>
                <th scope="col">{t('columns.actualDate')}</th>
                <th scope="col">{t('columns.state')}</th>
                <th scope="col">{t('columns.days')}</th>
              </tr>
            </thead>
            <tbody>
              {!data ? (
                <tr>
                  <td colSpan={11} className={styles.empty}>
                    {t('loading')}
                  </td>
                </tr>
              ) : data.alarms.length === 0 ? (
                <tr>
                  <td colSpan={11} className={styles.empty}>
                    {filters.state === null && filters.siteId === null ? t('emptyAll') : t('emptyFiltered')}
                  </td>
                </tr>
              ) : (
                data.alarms.map((alarm, index) => (
                  <AlarmRow
                    key={`${alarm.subject.id}-${alarm.visitKey}`}
                    alarm={alarm}
                    number={(data.page - 1) * data.size + index + 1}
                    studyId={studyId}
                    menuType={menuType}
                  />
                ))
              )}
            </tbody>
          </table>
        </div>
      )}

      {data ? <Pagination total={data.total} pageSize={data.size} /> : null}
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

function AlarmRow({
  alarm,
  number,
  studyId,
  menuType,
}: {
  alarm: VisitAlarm;
  number: number;
  studyId: number;
  menuType: string | null;
}) {
  const { t, i18n } = useTranslation('taskAlarm');
  const language = i18n.language === 'en' ? 'en' : 'ko';
  // The subject's overview, with the parameters the subject list uses (spec §2 "Subject list").
  const overview = studyPath(paths.subjectOverview, studyId, {
    [MENU_TYPE_PARAM]: menuType ?? undefined,
    'subject-id': alarm.subject.subjectId,
    'registration-number': alarm.subject.registrationNumber ?? undefined,
    'subject-pk': String(alarm.subject.id),
  });
  return (
    <tr>
      <td>{number}</td>
      <td>
        <Link to={overview} className={styles.subjectLink}>
          {alarm.subject.subjectId}
        </Link>
      </td>
      <td>{alarm.subject.registrationNumber ?? '–'}</td>
      <td title={alarm.subject.siteName}>{alarm.subject.siteCode}</td>
      <td>
        <SubjectStatusBadge status={alarm.subject.status}>
          {t(`status.${alarm.subject.status}`)}
        </SubjectStatusBadge>
      </td>
      <td>{alarm.visitLabel[language]}</td>
      <td className={styles.wrap}>
        {/* Breaks only between the two dates when the table is short of room. */}
        <span className={styles.nowrap}>
          {alarm.earliestDate} {t('windowSeparator')}
        </span>{' '}
        <span className={styles.nowrap}>{alarm.latestDate}</span>
      </td>
      <td>{alarm.expectedDate}</td>
      <td>{alarm.actualDate ?? '–'}</td>
      <td>
        <span className={styles.stateBadge} data-state={alarm.state}>
          {t(`states.${alarm.state}`)}
        </span>
      </td>
      <td className={`${styles.days} ${styles.wrap}`}>{daysText(alarm, t)}</td>
    </tr>
  );
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
