import type { AmendmentSummary, StudyMembership } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { generatePath, Link } from 'react-router';
import {
  DataTable,
  type DataTableColumn,
  tableLoadState,
} from '../../../components/data-table/data-table.tsx';
import { DateTimeText } from '../../../components/date-time-text.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { AmendmentStatusBadge } from '../../../components/status-badge.tsx';
import { StudyAbilityPage } from '../../../components/study-ability-page.tsx';
import { paths } from '../../../lib/paths.ts';
import { useAmendments } from '../api/amendments.ts';
import { Versions } from './amendment-fields.tsx';
import styles from './amendments.module.css';
import { NewAmendment } from './new-amendment-dialog.tsx';

/**
 * `/design/:studyId/amendments`: a live study's amendments (issue 49) for its designers (the
 * `study.design` ability), newest first, each linking to its page; a new one can be opened while the
 * study is live and no draft is open (the server refuses the same).
 */
export function AmendmentListPage() {
  return (
    <StudyAbilityPage ability="study.design" namespace="amendments">
      {(studyId, membership) => <AmendmentList studyId={studyId} membership={membership} />}
    </StudyAbilityPage>
  );
}

function AmendmentList({ studyId, membership }: { studyId: number; membership: StudyMembership }) {
  const { t } = useTranslation('amendments');
  const amendments = useAmendments(studyId);
  const rows = amendments.data?.amendments;
  const openDraft = rows?.find((amendment) => amendment.status === 'draft');
  const live = membership.studyStatus === 'active';
  const amendmentPath = (amendment: AmendmentSummary) =>
    generatePath(paths.amendment, { studyId: String(studyId), amendmentId: String(amendment.id) });

  const columns: DataTableColumn<AmendmentSummary>[] = [
    {
      id: 'number',
      header: t('list.number'),
      cell: (amendment) => (
        <Link className={listStyles.rowLink} to={amendmentPath(amendment)}>
          {amendment.number}
        </Link>
      ),
      rowHeader: true,
      hideable: false,
      // "AM-01" is one word: never broken at its hyphen.
      className: styles.number,
    },
    {
      id: 'status',
      header: t('list.status'),
      cell: (amendment) => (
        <AmendmentStatusBadge status={amendment.status}>
          {t(`status.${amendment.status}`)}
        </AmendmentStatusBadge>
      ),
    },
    {
      id: 'versions',
      header: t('list.versions'),
      cell: (amendment) => <Versions amendment={amendment} />,
    },
    { id: 'reason', header: t('list.reason'), cell: (amendment) => amendment.reason, wrap: true },
    {
      id: 'opened',
      header: t('list.opened'),
      cell: (amendment) => (
        <>
          {amendment.openedBy.name} · <DateTimeText value={amendment.openedBy.at} />
        </>
      ),
      wrap: true,
    },
    {
      id: 'published',
      header: t('list.published'),
      cell: (amendment) =>
        amendment.publishedBy ? (
          <>
            {amendment.publishedBy.name} · <DateTimeText value={amendment.publishedBy.at} />
          </>
        ) : (
          '—'
        ),
      wrap: true,
    },
  ];

  return (
    <>
      <div className={styles.listActions}>
        <Link className={listStyles.rowLink} to={generatePath(paths.design, { studyId: String(studyId) })}>
          {t('links.designer')}
        </Link>
        {/* A live study with no draft: the server would refuse a second draft or an ended study. */}
        {live && rows && !openDraft ? <NewAmendment studyId={studyId} sites={membership.sites} /> : null}
      </div>
      {!live ? <p className={styles.hint}>{t('list.notLive')}</p> : null}
      {openDraft ? (
        <p className={styles.hint}>
          {t('list.draftOpen')}{' '}
          <Link className={listStyles.rowLink} to={amendmentPath(openDraft)}>
            {openDraft.number}
          </Link>
        </p>
      ) : null}
      <DataTable
        id="amendments"
        label={t('list.title')}
        columns={columns}
        rows={rows}
        rowKey={(amendment) => String(amendment.id)}
        {...tableLoadState(amendments, t('list.loadError'))}
        emptyMessage={t('list.empty')}
        loadingMessage={t('page.loading')}
        fit
        pager={null}
      />
    </>
  );
}
