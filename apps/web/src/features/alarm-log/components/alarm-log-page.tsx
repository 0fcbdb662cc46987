import {
  ALARM_LOG_PAGE_SIZES,
  type AlarmLogEntry,
  alarmLogStatuses,
  notificationChannels,
  notificationEventTypes,
} from '@cdms/contract';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { DateTimeText } from '../../../components/date-time-text.tsx';
import {
  FilterChoice,
  FilterPanel,
  FilterPeriod,
  FilterText,
  ListPage,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import { useListState } from '../../../lib/list-state.ts';
import { useMe } from '../../../lib/me.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { downloadAlarmLog, useAlarmLog } from '../api/alarm-log.ts';
import { addressBreakPieces } from '../lib/address-breaks.ts';
import {
  type AlarmLogPageSize,
  alarmLogListParams,
  DEFAULT_ALARM_LOG_FILTERS,
} from '../lib/alarm-log-filters.ts';
import styles from './alarm-log.module.css';

/**
 * `/alarm-log/:studyId` (issue 18 item 4; CRA menu): every notification the system raised for the
 * study — task notices, queries, casebooks to sign, overdue visits, freezes and locks — with the
 * recipient, channel, time (UTC+9) and delivery status, filtered in the URL, paged and downloadable.
 */
export function AlarmLogPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <AlarmLog studyId={studyId} />;
}

function AlarmLog({ studyId }: { studyId: number }) {
  const { t } = useTranslation('alarmLog');
  const me = useMe();
  const sites = me.data?.memberships.find((m) => m.studyId === studyId)?.sites ?? [];
  const { values: filters, apply } = useListState(alarmLogListParams);
  const list = useAlarmLog(studyId, filters);
  const [draft, setDraft] = useState(filters);

  const columns: DataTableColumn<AlarmLogEntry>[] = [
    {
      id: 'createdAt',
      header: t('columns.createdAt'),
      hideable: false,
      // Times break between date and time, and text between words, so the log fits 1000 px.
      wrap: true,
      cell: (entry) => <DateTimeText value={entry.createdAt} />,
    },
    { id: 'event', header: t('columns.event'), wrap: true, cell: (entry) => t(`events.${entry.eventType}`) },
    { id: 'channel', header: t('columns.channel'), cell: (entry) => t(`channels.${entry.channel}`) },
    { id: 'site', header: t('columns.site'), cell: (entry) => entry.site ?? t('wholeStudy') },
    {
      id: 'recipient',
      header: t('columns.recipient'),
      hideable: false,
      wrap: true,
      cell: (entry) => (
        <span className={styles.recipient}>
          <span>{entry.recipientName ?? '—'}</span>
          <span className={styles.address}>
            {entry.recipientAddress
              ? addressBreakPieces(entry.recipientAddress).map((piece, index) => (
                  // A break opportunity before each piece but the first; nowhere inside one.
                  // biome-ignore lint/suspicious/noArrayIndexKey: the pieces are the address in order and never move.
                  <Fragment key={index}>
                    {index > 0 ? <wbr /> : null}
                    {piece}
                  </Fragment>
                ))
              : '—'}
          </span>
        </span>
      ),
    },
    {
      id: 'subject',
      header: t('columns.subject'),
      wrap: true,
      cell: (entry) => <span className={styles.subject}>{entry.subject}</span>,
    },
    {
      id: 'status',
      header: t('columns.status'),
      hideable: false,
      wrap: true,
      cell: (entry) => (
        <>
          <span className={styles.status} data-status={entry.status}>
            {t(`statuses.${entry.status}`)}
          </span>
          {entry.error ? <span className={styles.error}>{entry.error}</span> : null}
        </>
      ),
    },
    { id: 'attempts', header: t('columns.attempts'), numeric: true, cell: (entry) => entry.attempts },
    {
      id: 'sentAt',
      header: t('columns.sentAt'),
      wrap: true,
      cell: (entry) => (entry.sentAt ? <DateTimeText value={entry.sentAt} /> : '—'),
    },
  ];

  return (
    <ListPage title={t('page.title')}>
      <p className={styles.lead}>{t('page.lead')}</p>
      <FilterPanel
        onSubmit={() => apply({ ...draft, recipient: draft.recipient.trim() })}
        onReset={() => {
          const reset = { ...DEFAULT_ALARM_LOG_FILTERS, size: filters.size };
          setDraft(reset);
          apply(reset);
        }}
      >
        <FilterPeriod
          label={t('filters.period')}
          startLabel={t('filters.from')}
          endLabel={t('filters.to')}
          start={draft.from}
          end={draft.to}
          onStartChange={(from) => setDraft({ ...draft, from })}
          onEndChange={(to) => setDraft({ ...draft, to })}
        />
        <FilterChoice
          label={t('columns.event')}
          choices={['', ...notificationEventTypes]}
          value={draft.eventType}
          optionLabel={(choice) => (choice === '' ? t('filters.all') : t(`events.${choice}`))}
          onChange={(eventType) => setDraft({ ...draft, eventType })}
        />
        <FilterChoice
          label={t('columns.channel')}
          choices={['', ...notificationChannels]}
          value={draft.channel}
          optionLabel={(choice) => (choice === '' ? t('filters.all') : t(`channels.${choice}`))}
          onChange={(channel) => setDraft({ ...draft, channel })}
        />
        <FilterChoice
          label={t('columns.status')}
          choices={['', ...alarmLogStatuses]}
          value={draft.status}
          optionLabel={(choice) => (choice === '' ? t('filters.all') : t(`statuses.${choice}`))}
          onChange={(status) => setDraft({ ...draft, status })}
        />
        <SiteFilterChoice
          label={t('columns.site')}
          allSitesLabel={t('filters.allSites')}
          sites={sites.map((site) => ({ id: site.id, label: `${site.code} · ${site.name}` }))}
          value={draft.siteId}
          onChange={(siteId) => setDraft({ ...draft, siteId })}
        />
        <FilterText
          label={t('columns.recipient')}
          value={draft.recipient}
          onChange={(recipient) => setDraft({ ...draft, recipient })}
        />
      </FilterPanel>
      <PagedListTable<AlarmLogEntry, string, AlarmLogPageSize>
        id="alarm-log"
        label={t('page.caption')}
        columns={columns}
        fit
        rows={list.data?.entries}
        rowKey={(entry) => String(entry.id)}
        rowAttributes={(entry) => ({ 'data-status': entry.status })}
        query={list}
        loadFailed={t('page.loadFailed')}
        emptyMessage={t('page.none')}
        count={(total) => t('page.count', { count: total })}
        pageSize={filters.size}
        pageSizeChoice={{ sizes: ALARM_LOG_PAGE_SIZES, onChange: (size) => apply({ size }) }}
        downloads={{
          run: (format) => downloadAlarmLog(studyId, filters, format),
          csvLabel: t('page.downloadCsv'),
          xlsxLabel: t('page.downloadXlsx'),
        }}
      />
    </ListPage>
  );
}
