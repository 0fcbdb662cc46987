import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useNotices } from '../api/get-notices.ts';
import { MENU_TYPE_PARAM, noticeDetailUrl, noticeListUrl } from '../lib/notice-urls.ts';
import styles from './notice-strip.module.css';

/**
 * The header's one-line notice strip (prototype-spec §2 "Header"): the latest visible notice —
 * important ones first, as the list orders them — and a link to the list. It asks for the list's
 * first page with the list's own query key, so the list page and the dashboard share the request.
 */
export function NoticeStrip({ studyId }: { studyId: number }) {
  const { t } = useTranslation('notices');
  const [searchParams] = useSearchParams();
  const menuType = searchParams.get(MENU_TYPE_PARAM);
  const notices = useNotices(studyId);
  // Writers also receive hidden notices; the strip shows only what everyone sees.
  const latest = notices.data?.notices.find((notice) => notice.visible);

  return (
    <section className={styles.strip} aria-label={t('strip.region')}>
      <span className={styles.label}>{t('strip.label')}</span>
      <span className={styles.title}>
        {latest ? (
          <Link className={styles.link} to={noticeDetailUrl(studyId, latest.id, menuType)}>
            {latest.pinned && <span className={styles.pinned}>[{t('badges.pinned')}] </span>}
            {latest.title}
          </Link>
        ) : notices.data ? (
          <span className={styles.muted}>{t('strip.empty')}</span>
        ) : null}
      </span>
      <Link className={styles.more} to={noticeListUrl(studyId, menuType)} aria-label={t('panel.moreLabel')}>
        {t('strip.more')}
      </Link>
    </section>
  );
}
