import { AUDIT_TRAIL_PAGE_SIZES, type AuditChainStatus, type AuditTrailRow } from '@cdms/contract';
import type { Language } from '@cdms/study';

import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { PagedListTable } from '../../../components/data-table/paged-list-table.tsx';
import { ListPage, PageSizeSelect, useListDownload } from '../../../components/list-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { filterPanelKey, useListState } from '../../../lib/list-state.ts';
import { paths } from '../../../lib/paths.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { downloadAuditTrail, useAuditChainStatus, useAuditTrail } from '../api/audit-trail.ts';
import {
  type AuditFilterFields,
  type AuditPageSize,
  auditListParams,
  EMPTY_AUDIT_FILTER_FIELDS,
} from '../lib/audit-filters.ts';
import styles from './audit.module.css';
import { AuditFilterPanel } from './audit-filter-panel.tsx';

/**
 * `/audit/:studyId` (issue 16): the study's audit trail for CRA (their sites), DM and ADMIN — filters,
 * order, page size and page in the URL; a user or subject in a row narrows the trail to them; the
 * chain's status as a badge; the filtered trail as CSV.
 */
export function AuditPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <AuditTrail studyId={studyId} />;
}

function ChainBadge({ status }: { status: AuditChainStatus | undefined }) {
  const { t } = useTranslation('audit');
  if (!status) return <span className={styles.chain}>{t('chain.checking')}</span>;
  const checkedAt = formatDateTimeKst(status.checkedAt);
  const text =
    status.state === 'intact'
      ? t('chain.intact', { id: status.checkedUpTo, checkedAt })
      : status.state === 'empty'
        ? t('chain.empty', { checkedAt })
        : t('chain.broken', {
            id: status.firstBreakId,
            upTo: status.checkedUpTo,
            problem: t(`chain.problems.${status.problem}`),
            count: status.breakCount,
            checkedAt,
          });
  return (
    <span className={styles.chain} data-state={status.state} role="status">
      {text}
    </span>
  );
}

function AuditTrail({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('audit');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const { values: filters, apply } = useListState(auditListParams);
  const trail = useAuditTrail(studyId, filters);
  const chain = useAuditChainStatus(studyId);
  const definition = useStudyDefinition(studyId);
  const { downloading, download } = useListDownload(() => downloadAuditTrail(studyId, filters));

  const data = trail.data;
  const rows = data?.records;

  // What the record is about: the item's label, or the kind of thing unless the event already says it
  // ("Task notice registered" needs no "Task notice" beneath).
  const what = (row: AuditTrailRow) => {
    if (row.itemLabel) return row.itemLabel[language];
    const about = row.about?.[language];
    return about && !row.eventLabel[language].includes(about) ? about : null;
  };

  const columns: DataTableColumn<AuditTrailRow, 'time'>[] = [
    {
      id: 'time',
      header: t('columns.time'),
      sortKey: 'time',
      hideable: false,
      className: styles.time,
      cell: (row) => (
        <>
          {formatDateTimeKst(row.occurredAt)}
          <span className={styles.muted}>#{row.id}</span>
        </>
      ),
    },
    {
      id: 'user',
      header: t('columns.user'),
      wrap: true,
      className: styles.user,
      cell: (row) => (
        <>
          {row.userId !== null ? (
            <button
              type="button"
              className={styles.pick}
              title={t('pickUser')}
              onClick={() => apply({ ...filters, userId: row.userId })}
            >
              {row.userName}
            </button>
          ) : (
            row.userName
          )}
          {row.role ? <span className={styles.muted}>{row.role.replaceAll(',', ', ')}</span> : null}
        </>
      ),
    },
    {
      // Where it happened as users know it: the site, the subject's screening number, visit › form.
      id: 'where',
      header: t('columns.where'),
      wrap: true,
      className: styles.where,
      cell: (row) => (
        <>
          {row.siteCode || row.subjectId !== null ? (
            <span className={styles.line}>
              {row.siteCode ?? ''}
              {row.siteCode && row.subjectId !== null ? ' · ' : ''}
              {row.subjectId !== null ? (
                <button
                  type="button"
                  className={styles.pick}
                  title={t('pickSubject')}
                  onClick={() => apply({ ...filters, subjectId: row.subjectId })}
                >
                  {row.screeningNumber ?? t('subjectWithoutNumber')}
                </button>
              ) : null}
            </span>
          ) : null}
          {row.visitLabel || row.formLabel ? (
            <span className={styles.muted}>
              {[row.visitLabel?.[language], row.formLabel?.[language]].filter(Boolean).join(' › ')}
            </span>
          ) : null}
        </>
      ),
    },
    {
      // The event and what it is about: the item by its label, or the kind of thing ("Query").
      id: 'event',
      header: t('columns.event'),
      wrap: true,
      className: styles.event,
      cell: (row) => (
        <>
          {row.eventLabel[language]}
          {what(row) ? <span className={styles.what}>{what(row)}</span> : null}
        </>
      ),
    },
    {
      id: 'change',
      header: t('columns.change'),
      wrap: true,
      className: styles.change,
      cell: (row) => (
        <>
          {row.changes.length > 0 ? (
            <ul className={styles.changes}>
              {row.changes.map((change, index) => (
                // Fields of one record have no id of their own; their order is the record's.
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list drawn once per record
                <li key={index}>
                  {change.field ? <span className={styles.field}>{change.field[language]}: </span> : null}
                  {/* An item's first value reads "(empty) → value"; a field of a new record just its value. */}
                  {change.before !== null || change.field === null ? (
                    <>
                      <span className={styles.before}>{change.before?.[language] ?? t('empty')}</span>
                      {' → '}
                    </>
                  ) : null}
                  <span>{change.after?.[language] ?? t('empty')}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {/* The record as stored, for the reader who needs it (ids, stored values). */}
          <details className={styles.raw}>
            <summary>{t('raw.toggle')}</summary>
            <dl>
              <dt>{t('raw.target')}</dt>
              <dd>{row.target || '—'}</dd>
              <dt>{t('raw.type')}</dt>
              <dd>{row.eventType}</dd>
              <dt>{t('raw.before')}</dt>
              <dd>{row.before ?? '—'}</dd>
              <dt>{t('raw.after')}</dt>
              <dd>{row.after ?? '—'}</dd>
            </dl>
          </details>
        </>
      ),
    },
    {
      id: 'reason',
      header: t('columns.reason'),
      wrap: true,
      className: styles.reason,
      cell: (row) => row.reason ?? '',
    },
  ];

  return (
    <ListPage title={t('title')} headerActions={<ChainBadge status={chain.data} />}>
      <AuditFilterPanel
        key={filterPanelKey(filters, EMPTY_AUDIT_FILTER_FIELDS)}
        applied={filters}
        sites={data?.sites ?? []}
        eventTypes={data?.eventTypes ?? []}
        definition={definition.data?.definition}
        onApply={(fields: AuditFilterFields) =>
          apply({ ...filters, ...fields, userId: filters.userId, subjectId: filters.subjectId })
        }
      />

      {filters.userId !== null || filters.subjectId !== null ? (
        <div className={styles.picked}>
          {filters.userId !== null ? (
            <Button variant="secondary" size="sm" onClick={() => apply({ ...filters, userId: null })}>
              {t('picked.user', { name: rows?.[0]?.userName ?? filters.userId })} ✕
            </Button>
          ) : null}
          {filters.subjectId !== null ? (
            <Button variant="secondary" size="sm" onClick={() => apply({ ...filters, subjectId: null })}>
              {t('picked.subject', { number: rows?.[0]?.screeningNumber ?? filters.subjectId })} ✕
            </Button>
          ) : null}
        </div>
      ) : null}

      <PagedListTable<AuditTrailRow, 'time', AuditPageSize>
        id="audit-trail"
        label={t('caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row.id)}
        rowAttributes={(row) => ({ 'data-event': row.eventType })}
        fit
        query={trail}
        loadFailed={t('loadFailed')}
        sorting={{
          mode: 'server',
          sort: 'time',
          order: filters.sort === 'oldest' ? 'asc' : 'desc',
          onSort: () => apply({ ...filters, sort: filters.sort === 'oldest' ? 'newest' : 'oldest' }),
        }}
        emptyMessage={t('noData')}
        count={(total) => t('count', { count: total })}
        actions={
          <>
            <PageSizeSelect<AuditPageSize>
              sizes={AUDIT_TRAIL_PAGE_SIZES}
              value={filters.size}
              onChange={(size) => apply({ ...filters, size })}
            />
            <Button
              variant="secondary"
              disabled={downloading}
              aria-busy={downloading}
              onClick={() => void download(undefined)}
            >
              {t('downloadCsv')}
            </Button>
          </>
        }
        pageSize={filters.size}
      />
    </ListPage>
  );
}
