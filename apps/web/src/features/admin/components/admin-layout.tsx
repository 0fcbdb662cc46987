import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useStudies } from '../api/get-studies.ts';
import { AccessMessage } from './access-message.tsx';
import styles from './admin-layout.module.css';
import { STUDY_PARAM } from './study-select.tsx';

const tabs = [
  { to: paths.adminUsers, label: 'nav.users' },
  { to: paths.adminSites, label: 'nav.sites' },
  { to: paths.adminMemberships, label: 'nav.memberships' },
] as const;

/**
 * `/admin/*`, inside the signed-in app frame: the page title, the tabs between the three admin
 * pages, and the page itself — or the server's refusal for someone who is not an administrator.
 */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const [searchParams] = useSearchParams();
  // Every admin endpoint answers 403 to a non-administrator. The studies list (which two of the
  // three pages need anyway) tells the layout whether to show the pages or that refusal; the
  // browser holds no permission table of its own.
  const access = useStudies();
  const forbidden = access.error instanceof ApiError && access.error.kind === 'forbidden';
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
