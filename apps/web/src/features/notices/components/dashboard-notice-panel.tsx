import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useNotices } from '../api/get-notices.ts';
import { MENU_TYPE_PARAM, noticeDetailUrl, noticeListUrl } from '../lib/notice-urls.ts';
import styles from './dashboard-notice-panel.module.css';

/** How many notices the dashboard shows (prototype-spec §2 "Dashboard": three). */
const PANEL_SIZE = 3;

/**
 * The dashboard's notice panel: the latest three visible notices (important ones first, as the
 * list orders them), the first important one flagged, each with its date and time in UTC+9, and a
 * "more" link to the list keeping `menu-type`. Same query key as the list's first page and the
 * header strip, so they share one request.
 */
export function DashboardNoticePanel({ studyId }: { studyId: number }) {
  const { t } = useTranslation('notices');
  const [searchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const notices = useNotices(studyId);
  const headingId = useId();
  const rows = (notices.data?.notices ?? []).filter((notice) => notice.visible).slice(0, PANEL_SIZE);
  const flaggedId = rows.find((notice) => notice.pinned)?.id;

  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.header}>
        <h2 id={headingId} className={styles.heading}>
          {t('title')}
        </h2>
        <Link className={styles.more} to={noticeListUrl(studyId, menuType)} aria-label={t('panel.moreLabel')}>
          {t('panel.more')} ›
        </Link>
      </div>
      {notices.error ? (
        <p className={styles.empty} role="alert">
          {t('list.loadFailed')}
        </p>
      ) : !notices.data ? (
        <p className={styles.empty} role="status">
          {t('loading', { ns: 'common' })}
        </p>
      ) : rows.length === 0 ? (
        <p className={styles.empty}>{t('panel.empty')}</p>
      ) : (
        <ul className={styles.list}>
          {rows.map((notice) => (
            <li key={notice.id} className={styles.item}>
              {notice.id === flaggedId && <span className={styles.important}>{t('badges.pinned')}</span>}
              <Link className={styles.title} to={noticeDetailUrl(studyId, notice.id, menuType)}>
                {notice.title}
              </Link>
              <time className={styles.date} dateTime={notice.createdAt}>
                {formatDateTimeKst(notice.createdAt)} ({t('kst')})
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
