import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import { paths, studyPath } from '../../../lib/paths.ts';
import { MENU_TYPE_PARAM } from '../lib/notice-urls.ts';
import styles from './task-notices.module.css';

/** The notices menu's two lists: notices and task notices (issue 18). */
export function NoticeTabs({ studyId }: { studyId: number }) {
  const { t } = useTranslation('notices');
  const [searchParams] = useSearchParams();
  const query = { [MENU_TYPE_PARAM]: searchParams.get(MENU_TYPE_PARAM) ?? undefined };
  return (
    <nav className={styles.tabs} aria-label={t('tabs.label')}>
      <NavLink end className={styles.tab} to={studyPath(paths.notice, studyId, query)}>
        {t('tabs.notices')}
      </NavLink>
      <NavLink className={styles.tab} to={studyPath(paths.taskNotice, studyId, query)}>
        {t('tabs.taskNotices')}
      </NavLink>
    </nav>
  );
}
