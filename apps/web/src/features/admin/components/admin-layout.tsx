import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { AccessMessage } from './access-message.tsx';
import styles from './admin-layout.module.css';
import { STUDY_PARAM } from './study-select.tsx';

const tabs = [
  { to: paths.adminUsers, label: 'nav.users' },
  { to: paths.adminStudies, label: 'nav.studies' },
  { to: paths.adminSites, label: 'nav.sites' },
  { to: paths.adminMemberships, label: 'nav.memberships' },
] as const;

/**
 * `/admin/*`, inside the signed-in app frame: the page title, the tabs between the admin
 * pages, and the page itself — or "no permission" for someone who is not an administrator.
 * `isAdmin` is what the server said of the user (`me`); every admin endpoint answers 403 to anyone
 * else, so the pages are not even asked for (no refused calls). The browser holds no permission
 * table of its own, and the server still decides each call.
 */
export function AdminLayout({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation('admin');
  const [searchParams] = useSearchParams();
  const forbidden = !isAdmin;
  const study = searchParams.get(STUDY_PARAM);

  return (
    <div className={styles.page}>
      <div className={styles.band}>
        <div className={styles.titleRow}>
          <div className={styles.titles}>
            <h1 className={styles.title}>{t('title')}</h1>
            <p className={styles.subtitle}>{t('subtitle')}</p>
          </div>
          <Link to={paths.taskList} className={styles.back}>
            {t('backToTaskList')}
          </Link>
        </div>
        {!forbidden && (
          <nav aria-label={t('nav.label')}>
            <ul className={styles.tabList}>
              {tabs.map((tab) => (
                <li key={tab.to}>
                  {/* The chosen study follows the user between the sites and roles pages. */}
                  <NavLink
                    to={{ pathname: tab.to, search: study ? `?${STUDY_PARAM}=${study}` : '' }}
                    className={styles.tab}
                  >
                    {t(tab.label)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
      <div className={styles.main}>{forbidden ? <AccessMessage /> : <Outlet />}</div>
    </div>
  );
}
