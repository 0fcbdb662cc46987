import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageToggle } from '../components/language-toggle.tsx';
import { SidePopupGroup } from '../components/side-popup.tsx';
import { UserPopup } from '../features/auth/components/user-popup.tsx';
import { SessionTimer } from '../features/session/components/session-timer.tsx';
import { SupportPopup } from '../features/shell/components/support-popup.tsx';
import { paths } from '../lib/paths.ts';
import styles from './app-header.module.css';
import { HeaderMorePopup } from './header-more-popup.tsx';
import { VersionPopup } from './version-popup.tsx';

interface AppHeaderProps {
  /**
   * With the side menu the logo lives in the menu: the header then starts with `lead` (a study
   * page's notice strip) or the product name. Without it (admin, test page) the header has the logo.
   */
  withSideMenu?: boolean;
  lead?: ReactNode;
  /** Controls left of the language toggle (the task lists' search). */
  actions?: ReactNode;
  /** Extra side popups (the subject-info popup of study pages); they share one slot with the rest. */
  popups?: ReactNode;
}

/**
 * The header of the signed-in pages (prototype-spec §2 "Header"): notice strip, language, session
 * timer, version, support, search or subject info, and the user popup. Always one row: the lead
 * (notice strip) gives way first, then labels shorten and version and support fold into "more".
 */
export function AppHeader({ withSideMenu = false, lead, actions, popups }: AppHeaderProps) {
  const { t } = useTranslation('shell');
  return (
    <header className={styles.header}>
      <div className={styles.lead}>
        {withSideMenu ? (
          (lead ?? <span className={styles.productName}>{t('productName')}</span>)
        ) : (
          <Link to={paths.taskList} className={styles.brand}>
            <span className={styles.logo}>CDMS</span>
            <span className={styles.productName}>{t('productName')}</span>
          </Link>
        )}
      </div>
      <div className={styles.actions}>
        {actions}
        <LanguageToggle tone="dark" />
        <SessionTimer />
        {/* One popup at a time: opening one replaces the other. */}
        <SidePopupGroup>
          {/* One row always: with no room for them, version and support fold into "more". */}
          <span className={styles.roomy}>
            <VersionPopup />
            <SupportPopup />
          </span>
          <span className={styles.cramped}>
            <HeaderMorePopup />
          </span>
          {popups}
          <UserPopup />
        </SidePopupGroup>
      </div>
    </header>
  );
}
