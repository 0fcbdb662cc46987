import type { NoticeDetail, NoticeUpdate } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { DocumentContent, DocumentPage, useDocumentAction } from '../../../components/document-page.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useDeleteNotice } from '../api/delete-notice.ts';
import { useNotice } from '../api/get-notice.ts';
import { useUpdateNotice } from '../api/update-notice.ts';
import { MENU_TYPE_PARAM, NOTICE_PK_PARAM, noticeListUrl, noticeRegisterUrl } from '../lib/notice-urls.ts';
import { NoticeBadges } from './notice-badges.tsx';
import detailStyles from './notice-detail-page.module.css';
import type { NoticeListState } from './notice-list-page.tsx';
import styles from './notices.module.css';

/** `/notice/detail/:studyId?notice-pk=`: one notice, with the writer's actions. */
export function NoticeDetailPage() {
  const studyId = readId(useParams().studyId);
  const [searchParams] = useSearchParams();
  const noticeId = readId(searchParams.get(NOTICE_PK_PARAM));
  if (studyId === null || noticeId === null) return <Navigate to={paths.notFound} replace />;
  return <NoticeDetailView studyId={studyId} noticeId={noticeId} />;
}

function NoticeDetailView({ studyId, noticeId }: { studyId: number; noticeId: number }) {
  const { t } = useTranslation('notices');
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const notice = useNotice(studyId, noticeId);
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  // Back to the list as the user left it (filters, page), when they came from it.
  const listSearch = (location.state as NoticeListState | null)?.listSearch ?? '';
  const listUrl = noticeListUrl(studyId, menuType, listSearch);
  return (
    <DocumentPage
      title={t('title')}
      document={notice}
      notFound={t('detail.notFound')}
      back={
        <div className={detailStyles.footer}>
          <Link className={styles.linkButtonSecondary} to={listUrl}>
            {t('detail.back')}
          </Link>
        </div>
      }
      classes={{
        page: styles.page,
        pageHeader: styles.pageHeader,
        pageTitle: styles.pageTitle,
        state: `${styles.card} ${styles.state}`,
      }}
    >
      {(data) => <NoticeArticle notice={data} studyId={studyId} menuType={menuType} listUrl={listUrl} />}
    </DocumentPage>
  );
}

function NoticeArticle({
  notice,
  studyId,
  menuType,
  listUrl,
}: {
  notice: NoticeDetail;
  studyId: number;
  menuType: string | null;
  listUrl: string;
}) {
  const { t } = useTranslation('notices');
  const runAction = useDocumentAction();
  const navigate = useNavigate();
  const location = useLocation();
  const updateNotice = useUpdateNotice();
  const deleteNotice = useDeleteNotice();
  const busy = updateNotice.isPending || deleteNotice.isPending;

  async function change(update: NoticeUpdate, doneKey: string) {
    await runAction(() => updateNotice.mutateAsync({ studyId, noticeId: notice.id, ...update }), t(doneKey));
  }

  async function remove() {
    const deleted = await runAction(
      () => deleteNotice.mutateAsync({ studyId, noticeId: notice.id }),
      t('detail.deleted'),
      {
        title: t('detail.deleteTitle'),
        message: t('detail.deleteMessage'),
        confirmLabel: t('detail.delete'),
      },
    );
    if (deleted) navigate(listUrl, { replace: true });
  }

  const edited = notice.updatedAt !== notice.createdAt;
  return (
    <article className={`${styles.card} ${detailStyles.article}`}>
      <header className={detailStyles.header}>
        <NoticeBadges notice={notice} />
        <h2 className={detailStyles.title}>{notice.title}</h2>
        <dl className={detailStyles.meta}>
          <div>
            <dt>{t('detail.writer')}</dt>
            <dd>{notice.writer}</dd>
          </div>
          <div>
            <dt>{t('detail.createdAt')}</dt>
            <dd>
              {formatDateTimeKst(notice.createdAt)} ({t('kst')})
            </dd>
          </div>
          {edited && (
            <div>
              <dt>{t('detail.updatedAt')}</dt>
              <dd>
                {formatDateTimeKst(notice.updatedAt)} ({t('kst')})
              </dd>
            </div>
          )}
        </dl>
      </header>
      {!notice.visible && <p className={detailStyles.hiddenNote}>{t('detail.hiddenNotice')}</p>}
      <DocumentContent html={notice.contentHtml} className={detailStyles.content} />
      {notice.canEdit && (
        <div className={detailStyles.actions}>
          <Link
            className={styles.linkButton}
            to={noticeRegisterUrl(studyId, menuType, notice.id)}
            // Through the edit form and back, "back to list" still returns to the filtered list.
            state={location.state}
          >
            {t('detail.edit')}
          </Link>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() =>
              void change(
                { pinned: !notice.pinned },
                notice.pinned ? 'detail.unpinnedDone' : 'detail.pinnedDone',
              )
            }
          >
            {t(notice.pinned ? 'detail.unpin' : 'detail.pin')}
          </Button>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() =>
              void change(
                { visible: !notice.visible },
                notice.visible ? 'detail.hiddenDone' : 'detail.shownDone',
              )
            }
          >
            {t(notice.visible ? 'detail.hide' : 'detail.show')}
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => void remove()}>
            {t('detail.delete')}
          </Button>
        </div>
      )}
    </article>
  );
}
